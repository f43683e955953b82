// The chat of a game: the players' room (for the two players) or the spectators' room
// (for everyone else), through the game's WebSocket. Messages are shown as text only
// (textContent, never HTML), at most 140 characters; each reader may switch the chat off
// (kept in localStorage), and there is none in games against the computer.
import { t } from "./i18n.js";
import { h } from "./api.js";

const KEY = "damier.chat";
export const CHAT_LENGTH = 140;

export class ChatPanel {
  /** elements: {section, log, form, input, toggle}; send(frame) sends on the socket. */
  constructor(elements, send) {
    this.elements = elements;
    this.send = send;
    this.room = "spectators";
    this.available = false;
    elements.input.maxLength = CHAT_LENGTH;
    elements.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = elements.input.value.trim();
      if (!text) return;
      if (this.send({ type: "chat", room: this.room, text })) elements.input.value = "";
    });
    elements.toggle.addEventListener("click", () => {
      this.enabled = !this.enabled;
      this.render();
    });
    this.render();
  }

  get enabled() {
    try {
      return localStorage.getItem(KEY) !== "off";
    } catch {
      return true;
    }
  }

  set enabled(value) {
    try {
      localStorage.setItem(KEY, value ? "on" : "off");
    } catch {
      /* the switch lasts for the page */
    }
  }

  /** Follow the game: which room the viewer writes in, and whether there is a chat. */
  update(game) {
    const computer = (game.seats || [game.white, game.black]).some((seat) => seat?.kind === "computer");
    this.available = !computer;
    this.room = game.you ? "players" : "spectators";
    this.render();
  }

  /** A chat frame from the server. */
  receive(frame) {
    if (frame.room !== this.room) return;
    const who = h("span", {
      class: `chat-name${frame.color ? ` ${frame.color}` : ""}${frame.guest ? " guest" : ""}`,
    });
    who.textContent = frame.name || "?";
    const text = h("span", { class: "chat-text" });
    text.textContent = frame.text; // plain text, never markup
    this.elements.log.append(h("li", {}, who, ": ", text));
    while (this.elements.log.children.length > 100) this.elements.log.firstElementChild.remove();
    this.elements.log.scrollTop = this.elements.log.scrollHeight;
  }

  render() {
    const { section, log, form, toggle } = this.elements;
    section.hidden = !this.available;
    const on = this.enabled;
    toggle.textContent = on ? t("Turn chat off") : t("Turn chat on");
    toggle.setAttribute("aria-pressed", String(!on));
    log.hidden = !on;
    form.hidden = !on;
    section.querySelector("h2").textContent = this.room === "players" ? t("Chat with your opponent") : t("Spectators' chat");
  }
}
