"""The browser UI against the real server: Playwright drives Debian's chromium.

`damier serve` runs in a subprocess on a fresh SQLite file; each player is a browser
context of its own (its own cookies). Skipped when playwright or /usr/bin/chromium is
missing (`pip install playwright`, `apt-get install chromium`; no `playwright install`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from damier.compiled import build_cache

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 15_000
SCREENSHOTS = Path(os.environ.get("DAMIER_SCREENSHOTS", "/tmp"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _damier_command() -> list[str]:
    script = shutil.which("damier")
    if script:
        return [script]
    return [sys.executable, "-c", "import sys; from damier.cli import main; sys.exit(main())"]


class Server:
    """`damier serve` in a subprocess on ``port`` and the SQLite file of ``directory``."""

    def __init__(self, directory: Path, port: int | None = None) -> None:
        self.directory = directory
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        build_cache()  # built here once, the server's own build at start only loads it
        env = dict(
            os.environ,
            DAMIER_ENGINE_SECONDS="0.2",
            DAMIER_SECRET="browser-test-secret-not-for-production",
            # One server for a module's tests: their many guests all come from 127.0.0.1.
            DAMIER_GUEST_CAPACITY="1000",
        )
        log_path = self.directory / "server.log"
        with log_path.open("a") as log:
            self.process = subprocess.Popen(
                [
                    *_damier_command(),
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--database",
                    f"sqlite+aiosqlite:///{self.directory / 'db.sqlite3'}",
                    "--workers",
                    "1",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
            )
        deadline = time.monotonic() + 90
        while True:
            try:  # ready: the compiled code loaded (requests that need it would wait)
                with urllib.request.urlopen(f"{self.base}/api/status", timeout=2) as answer:
                    if json.loads(answer.read())["state"] == "ready":
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"damier serve did not start:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a `damier serve` on a free port and a fresh database."""
    running = Server(tmp_path_factory.mktemp("browser"))
    running.start()
    try:
        yield running.base
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


class Contexts:
    """Browser contexts of one test (one per person), closed at the end."""

    def __init__(self, browser: Browser, base: str) -> None:
        self.browser = browser
        self.base = base
        self.opened: list[BrowserContext] = []
        self.errors: list[str] = []

    def page(self, width: int = 1280, height: int = 900) -> Page:
        context = self.browser.new_context(
            base_url=self.base, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(TIMEOUT_MS)
        self.opened.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    def close(self) -> None:
        for context in self.opened:
            context.close()


@pytest.fixture
def people(browser: Browser, server: str) -> Iterator[Contexts]:
    contexts = Contexts(browser, server)
    try:
        yield contexts
        assert contexts.errors == [], f"JavaScript errors: {contexts.errors}"
    finally:
        contexts.close()


# --- helpers ------------------------------------------------------------------------------


def cell(page: Page, square: str | int) -> Any:
    return page.locator(f'svg.board polygon.cell[data-square="{square}"]')


def piece(page: Page, square: str | int) -> Any:
    return page.locator(f'svg.board g.piece[data-square="{square}"]')


def set_name(page: Page, name: str) -> None:
    page.goto("/")
    page.fill("#name-input", name)
    page.click("#name-form button[type=submit]")
    expect(page.locator("#who")).to_have_text(f"Playing as {name}")


def create_game(
    page: Page,
    *,
    opponent: str,
    color: str = "white",
    variant: str = "international",
    clock: str = "",
    level: int = 1,
) -> str:
    """Creates a game from the lobby form; answers the game id."""
    page.goto("/")
    page.wait_for_selector(f'#variant option[value="{variant}"]', state="attached")
    page.select_option("#variant", variant)
    page.check(f'input[name=opponent][value="{opponent}"]')
    if opponent == "computer":
        page.select_option("#level", str(level))
    page.check(f'input[name=color][value="{color}"]')
    page.select_option("#clock", clock)
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    page.wait_for_selector("svg.board g.piece")
    return page.url.rsplit("/", 1)[-1]


def click_move(page: Page, *squares: str | int) -> None:
    for square in squares:
        cell(page, square).click()


def drag_move(page: Page, start: str | int, end: str | int) -> None:
    a = cell(page, start).bounding_box()
    b = cell(page, end).bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def keyboard_move(page: Page, *squares: str | int) -> None:
    """Plays a move with the keyboard: the actionable cells are buttons in the tab order."""
    for square in squares:
        cell(page, square).focus()
        page.keyboard.press("Enter")


def moves_of(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#moves button[data-ply]").all_inner_texts()]


def expect_moves(page: Page, moves: list[str]) -> None:
    expect(page.locator("#moves button[data-ply]")).to_have_text(moves)


def api_state(page: Page, game_id: str) -> dict[str, Any]:
    answer = page.request.get(f"/api/games/{game_id}")
    assert answer.ok, answer.text()
    state: dict[str, Any] = json.loads(answer.text())
    return state


# --- tests --------------------------------------------------------------------------------


@pytest.mark.slow  # a browser run (the default run stays under 5 minutes)
def test_an_offer_is_withdrawn_from_its_page(people: Contexts) -> None:
    ana = people.page()
    set_name(ana, "Ana")
    game_id = create_game(ana, opponent="open", color="white", clock="5+3")
    expect(ana.locator("#status")).to_contain_text("Waiting for an opponent")
    ana.click("#abort")
    expect(ana.locator("#abort")).to_be_hidden()
    assert api_state(ana, game_id)["result"]["reason"] == "aborted"
    bo = people.page()
    set_name(bo, "Bo")
    expect(bo.locator(f'#open-games tr[data-game="{game_id}"]')).to_have_count(0)


@pytest.mark.slow  # a long browser run (the default run stays under 5 minutes)
def test_two_people_play_and_resign(people: Contexts) -> None:
    ana = people.page()
    set_name(ana, "Ana")
    ana.screenshot(path=str(SCREENSHOTS / "damier-lobby-empty.png"), full_page=True)
    game_id = create_game(ana, opponent="open", color="white", clock="5+3")
    expect(ana.locator("#status")).to_contain_text("Waiting for an opponent")
    expect(ana.locator("#invite")).to_be_visible()
    assert ana.locator("#invite-url").input_value().endswith(f"/games/{game_id}")

    bo = people.page(width=412, height=900)  # a phone-sized screen
    set_name(bo, "Bo")
    row = bo.locator(f'#open-games tr[data-game="{game_id}"]')
    expect(row).to_contain_text("Ana")
    expect(row).to_contain_text("5+3")
    bo.screenshot(path=str(SCREENSHOTS / "damier-lobby.png"), full_page=True)
    row.get_by_role("button", name=re.compile("Join")).click()
    bo.wait_for_url(f"**/games/{game_id}")
    bo.wait_for_selector("svg.board g.piece")

    # Both see the game start; Bo (Black) sees the board flipped, his clock not running yet.
    expect(ana.locator("#status")).to_have_text(re.compile("Your turn"))
    expect(bo.locator("#status")).to_contain_text("Waiting for Ana")
    expect(bo.locator("#flip")).to_have_attribute("aria-pressed", "true")
    expect(ana.locator("#player-top .label")).to_have_text("Bo")
    expect(ana.locator("#player-bottom .clock")).to_have_text(re.compile(r"^[45]:\d\d$"))

    # Ana moves by clicking: piece, then target (highlighted), then the board updates.
    cell(ana, 32).click()
    expect(cell(ana, 28)).to_have_class(re.compile(r"\btarget\b"))
    expect(cell(ana, 27)).to_have_class(re.compile(r"\btarget\b"))
    cell(ana, 28).click()
    expect_moves(ana, ["32-28"])
    expect_moves(bo, ["32-28"])
    expect(piece(bo, 28)).to_have_attribute("data-color", "white")
    expect(piece(bo, 32)).to_have_count(0)
    expect(bo.locator("#status")).to_have_text(re.compile("Your turn"))
    # No clock runs before Bo's first move.
    bo_clock = bo.locator("#player-bottom .clock")
    expect(bo_clock).not_to_have_class(re.compile(r"\brunning\b"))

    # Bo answers by dragging 19 to 23; Ana must then capture 28x19.
    drag_move(bo, 19, 23)
    expect_moves(ana, ["32-28", "19-23"])
    # Now Ana's clock runs and counts down locally between server states.
    ana_clock = ana.locator("#player-bottom .clock")
    expect(ana_clock).to_have_class(re.compile(r"\brunning\b"))
    shown = ana_clock.inner_text()
    expect(ana_clock).not_to_have_text(shown, timeout=3000)
    expect(ana.locator("#status")).to_contain_text("You must capture")
    expect(cell(ana, 28)).to_have_class(re.compile(r"\bmust-capture\b"))
    cell(ana, 28).click()
    cell(ana, 19).click()  # the final square: only one capture fits
    expect_moves(bo, ["32-28", "19-23", "28x19"])
    expect(piece(bo, 23)).to_have_count(0)
    expect(piece(bo, 19)).to_have_attribute("data-color", "white")
    # Black must take back: 14x23 or 13x24; play it by clicking the final square.
    expect(bo.locator("#status")).to_contain_text("You must capture")
    click_move(bo, 14, 23)
    expect_moves(ana, ["32-28", "19-23", "28x19", "14x23"])
    ana.screenshot(path=str(SCREENSHOTS / "damier-game.png"), full_page=True)

    # The move list shows earlier positions (replayed from the moves).
    ana.locator('#moves button[data-ply="1"]').click()
    expect(piece(ana, 28)).to_have_attribute("data-color", "white")
    expect(piece(ana, 19)).to_have_attribute("data-color", "black")
    expect(ana.locator("#viewing")).to_contain_text("32-28")
    ana.click("#nav-last")
    expect(piece(ana, 23)).to_have_attribute("data-color", "black")

    # Bo resigns (the confirmation dialog is accepted); both see the result.
    bo.click("#resign")
    for page in (ana, bo):
        expect(page.locator("#status")).to_contain_text("White wins")
        expect(page.locator("#status")).to_contain_text("resignation")
        expect(page.locator("#status")).to_contain_text("2-0")
        expect(page.locator("#resign")).to_be_hidden()
        expect(page.locator("#rematch")).to_be_visible()
    state = api_state(ana, game_id)
    assert state["status"] == "finished"
    assert state["result"]["winner"] == "white"
    pdn = ana.request.get(f"/api/games/{game_id}/pdn")
    assert pdn.ok and "28x19" in pdn.text()


def test_computer_answers_a_clicked_move(people: Contexts) -> None:
    page = people.page()
    set_name(page, "Cleo")
    game_id = create_game(page, opponent="computer", color="white", level=1)
    expect(page.locator("#player-top .label")).to_contain_text("Computer")
    click_move(page, 33, 29)
    expect(page.locator("#moves button[data-ply]")).to_have_count(2)
    assert moves_of(page)[0] == "33-29"
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
    state = api_state(page, game_id)
    assert state["ply"] == 2 and state["you"] == "white"
    # The board shows the server's position: the computer's piece has moved.
    computer_move = state["moves"][1]
    expect(piece(page, computer_move["path"][-1])).to_have_attribute("data-color", "black")
    expect(piece(page, computer_move["path"][0])).to_have_count(0)


def test_black_against_the_computer_and_typed_move(people: Contexts) -> None:
    page = people.page()
    create_game(page, opponent="computer", color="black", level=1, variant="russian")
    # The computer (White) opens; Black's board is flipped (square 1 at the bottom right).
    expect(page.locator("#moves button[data-ply]")).to_have_count(1)
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
    top = cell(page, 32).bounding_box()
    bottom = cell(page, 1).bounding_box()
    assert top and bottom and top["y"] < bottom["y"]
    legal = page.locator("#legal-moves option").first.get_attribute("value")
    assert legal
    page.fill("#move-input", legal)
    page.click("#move-form button[type=submit]")
    expect(page.locator("#moves button[data-ply]")).to_have_count(3)
    assert moves_of(page)[1] == legal


def test_reload_restores_the_game(people: Contexts) -> None:
    page = people.page()
    game_id = create_game(page, opponent="computer", color="white", level=1)
    click_move(page, 32, 28)
    expect(page.locator("#moves button[data-ply]")).to_have_count(2)
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
    before = moves_of(page)
    pieces_before = sorted(
        page.locator("svg.board g.piece").evaluate_all(
            "(ps) => ps.map((p) => p.dataset.square + p.dataset.color)"
        )
    )
    page.reload()
    page.wait_for_selector("svg.board g.piece")
    expect_moves(page, before)
    pieces_after = sorted(
        page.locator("svg.board g.piece").evaluate_all(
            "(ps) => ps.map((p) => p.dataset.square + p.dataset.color)"
        )
    )
    assert pieces_after == pieces_before
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
    expect(page.locator("#connection")).to_have_text("Live.")
    state = api_state(page, game_id)
    # The game goes on after the reload, here with the keyboard.
    move = state["legal_moves"][0]
    expect(cell(page, move["path"][0])).to_have_attribute("tabindex", "0")
    keyboard_move(page, move["path"][0], move["path"][-1])
    if any(
        m["path"][0] == move["path"][0] and m["path"][-1] == move["path"][-1] and m != move
        for m in state["legal_moves"]
    ):  # several captures end there: the landing squares in order
        keyboard_move(page, *move["path"][1:])
    expect(page.locator("#moves button[data-ply]")).to_have_count(4)


@pytest.mark.slow  # a long browser run (the default run stays under 5 minutes)
def test_spectator_sees_the_moves_live(people: Contexts) -> None:
    ana = people.page()
    set_name(ana, "Ana")
    game_id = create_game(ana, opponent="open", color="black")
    bo = people.page()
    set_name(bo, "Bo")
    bo.goto(f"/games/{game_id}")
    bo.click("#join")
    expect(bo.locator("#status")).to_have_text(re.compile("Your turn"))

    watcher = people.page()
    watcher.goto(f"/games/{game_id}")
    watcher.wait_for_selector("svg.board g.piece")
    expect(watcher.locator("#status")).to_have_text("White to move.")
    expect(watcher.locator("#player-bottom .label")).to_have_text("Bo")
    expect(watcher.locator("#player-top .label")).to_have_text("Ana")
    for button in ("#resign", "#draw-offer", "#join", "#move-form"):
        expect(watcher.locator(button)).to_be_hidden()
    expect(watcher.locator("svg.board .cell.movable")).to_have_count(0)

    click_move(bo, 31, 27)
    expect_moves(watcher, ["31-27"])
    expect(piece(watcher, 27)).to_have_attribute("data-color", "white")
    expect(watcher.locator("#status")).to_have_text("Black to move.")
    click_move(ana, 20, 24)
    expect_moves(watcher, ["31-27", "20-24"])
    expect(piece(watcher, 24)).to_have_attribute("data-color", "black")

    # A draw offered and accepted shows on every page.
    bo.click("#draw-offer")
    expect(ana.locator("#draw-accept")).to_be_visible()
    expect(watcher.locator("#status")).to_contain_text("White offers a draw")
    ana.click("#draw-accept")
    for page in (ana, bo, watcher):
        expect(page.locator("#status")).to_contain_text("Draw")
        expect(page.locator("#status")).to_contain_text("1-1")
    expect(watcher.locator("#rematch")).to_be_hidden()


def test_rematch_goes_to_the_new_game(people: Contexts) -> None:
    page = people.page()
    game_id = create_game(page, opponent="computer", color="white", level=1)
    page.click("#resign")
    expect(page.locator("#status")).to_contain_text("Black wins")
    page.click("#rematch")
    page.wait_for_url(re.compile(r"/games/(?!" + re.escape(game_id) + r"$)[^/]+$"))
    page.wait_for_selector("svg.board g.piece")
    expect(page.locator("#flip")).to_have_attribute("aria-pressed", "true")  # colours swapped


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_a_finished_game_is_reviewed_by_the_engine(people: Contexts) -> None:
    page = people.page()
    game_id = create_game(page, opponent="computer", color="white", level=1)
    expect(page.locator("#review")).to_be_hidden()
    click_move(page, 32, 28)
    expect(page.locator("#moves button[data-ply]")).to_have_count(2)
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
    page.click("#resign")
    expect(page.locator("#status")).to_contain_text("Black wins")
    expect(page.locator("#review")).to_be_visible()
    page.click("#review-start")
    # The graph comes once the engine is done (202 and progress until then).
    expect(page.locator("#review-graph svg.eval-graph")).to_be_visible(timeout=60_000)
    expect(page.locator("#review-graph g.eval-point")).to_have_count(3)
    expect(page.locator("#review-summary")).to_contain_text("Evaluation")
    review = json.loads(page.request.get(f"/api/games/{game_id}/review").text())
    assert len(review["positions"]) == 3
    # The shown position (the last) has the engine's best move drawn as an arrow.
    arrow = page.locator("svg.board g.mark-arrow")
    last_best = review["positions"][2]["best"]
    expect(arrow).to_have_attribute("data-path", "-".join(map(str, last_best["path"])))
    # A point of the graph shows its position, with that position's best move.
    page.locator('#review-graph g.eval-point[data-ply="0"]').click()
    expect(page.locator("#viewing")).to_contain_text("start position")
    best = review["positions"][0]["best"]
    expect(arrow).to_have_attribute("data-path", "-".join(map(str, best["path"])))
    expect(page.locator("#review-summary")).to_contain_text(f"best move {best['notation']}")
    page.locator('#moves button[data-ply="1"]').click()
    expect(page.locator('#review-graph g.eval-point[data-ply="1"]')).to_have_class(
        re.compile(r"\bselected\b")
    )
    expect(page.locator("#review-summary")).to_contain_text("32-28")
    page.screenshot(path=str(SCREENSHOTS / "damier-review.png"), full_page=True)


def test_rules_page_draws_the_start_position(people: Contexts) -> None:
    page = people.page()
    page.goto("/rules/international")
    expect(page.locator("#title")).to_have_text("International draughts (FMJD)")
    expect(page.locator('svg.board g.piece[data-color="white"]')).to_have_count(20)
    expect(page.locator('svg.board g.piece[data-color="black"]')).to_have_count(20)
    expect(page.locator("svg.board polygon.cell")).to_have_count(50)
    page.goto("/rules/turkish")
    expect(page.locator("svg.board polygon.cell")).to_have_count(64)
    expect(page.locator("svg.board g.piece")).to_have_count(32)
    expect(page.locator("#variant-links a").first).to_be_visible()


@pytest.mark.slow  # a long browser run: CI runs it with -m slow
def test_the_page_reconnects_after_a_server_restart(browser: Browser, tmp_path: Path) -> None:
    own = Server(tmp_path)
    own.start()
    people = Contexts(browser, own.base)
    try:
        page = people.page()
        game_id = create_game(page, opponent="computer", color="white", level=1)
        click_move(page, 32, 28)
        expect(page.locator("#moves button[data-ply]")).to_have_count(2)
        own.stop()
        expect(page.locator("#connection")).to_contain_text("Connection lost")
        own.start()
        expect(page.locator("#connection")).to_have_text("Live.", timeout=30_000)
        expect(page.locator("#status")).to_have_text(re.compile("Your turn"))
        state = api_state(page, game_id)
        move = state["legal_moves"][0]
        click_move(page, *move["path"])
        expect(page.locator("#moves button[data-ply]")).to_have_count(4)
        assert people.errors == []
    finally:
        people.close()
        own.stop()


def test_the_game_socket_appends_moves_and_asks_for_the_whole_state_after_a_gap(
    people: Contexts,
) -> None:
    """A move comes as a delta (``api.js``'s ``GameSocket.merge``): appended when it follows
    the version held; after a gap the socket asks once for the whole state, and takes it."""
    page = people.page()
    page.goto("/")
    seen = page.evaluate(
        """async () => {
          const { GameSocket } = await import("/static/js/api.js");
          const socket = new GameSocket("none", {});
          const asked = [];
          socket.send = (message) => { asked.push(message.type); return true; };
          const move = (n) => ({ notation: n });
          const frames = [
            { version: 3, game: { ply: 1, moves: [move("a")] } },
            { version: 4, after: 3, played: [move("b")], game: { ply: 2 } },
            { version: 6, after: 5, played: [move("d")], game: { ply: 4 } },
            { version: 7, after: 6, played: [move("e")], game: { ply: 5 } },
            { version: 7, game: { ply: 5, moves: ["a", "b", "c", "d", "e"].map(move) } },
            { version: 8, after: 7, played: [move("f")], game: { ply: 6 } },
          ];
          const games = frames.map((frame) => socket.merge(frame));
          socket.close();
          return {
            moves: games.map((game) => game && game.moves.map((m) => m.notation).join("")),
            asked,
          };
        }"""
    )
    assert seen["moves"] == ["a", "ab", None, None, "abcde", "abcdef"]
    assert seen["asked"] == ["sync"]
