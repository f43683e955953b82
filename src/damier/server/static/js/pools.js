// The lobby's quick pairing: a button per clock control joins the pool of the variant
// chosen in the lobby's form (POST /api/pools/{variant}/{clock}); pressed again it leaves
// (DELETE /api/pools). Each button shows how many wait in its pool. While this page
// waits it asks GET /api/pools every two seconds (which keeps it in the pool and lets the
// server pair it, the range of ratings widening with the wait) and goes to the game once
// paired; otherwise it refreshes the counts every ten seconds.
import { ApiError, getJSON, h, postJSON, showError } from "./api.js";
import { t, tn } from "./i18n.js";

const WAITING_MS = 2000;
const IDLE_MS = 10000;
const $ = (id) => document.getElementById(id);
let view = null;
let timer = null;

function variant() {
  return $("variant")?.value || "international";
}

/** A variant's title as the lobby's form shows it (in the player's language). */
function variantTitle(name) {
  const option = [...($("variant")?.options || [])].find((o) => o.value === name);
  return option?.textContent || name;
}

function waitingIn(clock) {
  const pool = view?.pools.find((p) => p.variant === variant() && p.clock === clock);
  return pool ? pool.waiting : 0;
}

function render() {
  const box = $("quick-pairing");
  if (!box || !view) return;
  const you = view.you;
  box.replaceChildren(
    ...view.clocks.map((clock) => {
      const mine = you && !you.game && you.variant === variant() && you.clock === clock;
      const count = waitingIn(clock);
      return h(
        "button",
        {
          type: "button",
          "data-clock": clock,
          "aria-pressed": mine ? "true" : "false",
          onclick: () => toggle(clock, mine).catch(report),
        },
        h("span", { class: "control" }, clock),
        h("span", { class: "count" }, mine ? t("waiting…") : tn("{n} waiting", "{n} waiting", count)),
      );
    }),
  );
  const status = $("quick-status");
  if (you && !you.game) {
    status.textContent = t("Looking for an opponent at {variant} {clock} rated {low}–{high} ({seconds} s)…", {
      variant: variantTitle(you.variant),
      clock: you.clock,
      low: Math.round(you.rating - you.range),
      high: Math.round(you.rating + you.range),
      seconds: Math.round(you.waited),
    });
  } else {
    status.textContent = "";
  }
}

function schedule() {
  clearTimeout(timer);
  const waiting = view?.you && !view.you.game;
  timer = setTimeout(() => refresh().catch(report), waiting ? WAITING_MS : IDLE_MS);
}

function arrived() {
  if (view?.you?.game) {
    location.href = `/games/${encodeURIComponent(view.you.game)}`;
    return true;
  }
  return false;
}

async function refresh() {
  view = await getJSON("/api/pools");
  if (arrived()) return;
  render();
  schedule();
}

async function toggle(clock, leaving) {
  if (leaving) {
    await fetch("/api/pools", { method: "DELETE", credentials: "same-origin" });
    await refresh();
    return;
  }
  view = await postJSON(`/api/pools/${encodeURIComponent(variant())}/${encodeURIComponent(clock)}`);
  if (arrived()) return;
  render();
  schedule();
}

function report(error) {
  if (error instanceof ApiError || error instanceof Error) showError($("error"), error.message);
  schedule();
}

function start() {
  if (!$("quick-pairing")) return;
  $("variant")?.addEventListener("change", render);
  window.addEventListener("pagehide", () => {
    if (view?.you && !view.you.game) {
      fetch("/api/pools", { method: "DELETE", credentials: "same-origin", keepalive: true });
    }
  });
  refresh().catch(report);
}

start();
