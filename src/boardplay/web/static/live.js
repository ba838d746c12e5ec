// GameClient: one live game as seen by this browser. It holds the latest view, keeps the
// WebSocket open (reconnecting with back-off), merges the server's delta updates, drops views
// older than the one it holds, and tells subscribers about each new view. Pages act through it
// (act, undo, resign, draw, rematch) and never touch the socket or the HTTP calls themselves.
//
// Whose view: a socket starts as a spectator's (the server sends a spectator's whole view on
// connecting, before it has read anything) and becomes the player's once the server has read
// the "hello" carrying the seat token. Views that arrive before the answer to our hello (a
// "state" carrying the hello's id) are a spectator's, so they are not shown: a player's page
// would otherwise flip to a spectator's view (no "(you)", no legal moves) until the answer came.
import { api, reconnectDelay } from "./api.js";

let hellos = 0; // hello ids, unique within this page

export class GameClient {
  constructor(id, token, onConnection = () => {}) {
    this.id = id;
    this.token = token;
    this.game = null;
    this.onConnection = onConnection;
    this.listeners = new Set();
    this.socket = null;
    this.closed = false;
    this.retry = 0;
    this.busy = false;
    this.live = null; // the socket's own copy, which its delta updates apply to
    this.greeting = null; // the id of the hello not answered yet on this socket
    this.pending = null; // a request made while the network was down, sent once it is back
    this.offset = 0; // the server's clock minus this browser's, in ms (from the hello's answer)
    this.onOnline = () => this.flush();
    window.addEventListener("online", this.onOnline);
  }

  // Loads the game once over HTTP, then follows it over the socket.
  async start() {
    this.accept(await api(`/api/games/${this.id}`, { token: this.token }));
    this.connect();
    return this.game;
  }

  subscribe(fn) {
    this.listeners.add(fn);
    if (this.game) fn(this.game);
    return () => this.listeners.delete(fn);
  }

  // A view from any source. One older than the view held (same server epoch, lower version)
  // arrived late on another path and is ignored; so is one of the same version, the same view
  // again on the other path (an action's HTTP answer and the socket's update both carry it):
  // drawing it twice would replace the board under a click the player is making.
  accept(next) {
    if (this.game) {
      const [epoch, version] = next.version || ["", 0];
      const [heldEpoch, heldVersion] = this.game.version || ["", -1];
      if (epoch === heldEpoch && version <= heldVersion) return;
    }
    this.game = next;
    for (const fn of this.listeners) fn(next);
  }

  // Plays the legal move with id `id` (ids, not notation, are what the boards hand over).
  act(id) { return this.send(`/api/games/${this.id}/actions`, { action: id, ply: this.game.ply }); }

  undo() { return this.send(`/api/games/${this.id}/undo`, { ply: this.game.ply }); }

  // Give up (the server ends the game, or hands a seat of a bigger game to the AI).
  resign() { return this.send(`/api/games/${this.id}/resign`, {}); }

  // "offer", "accept" or "decline" a draw.
  draw(answer) { return this.send(`/api/games/${this.id}/draw`, { answer }); }

  // The opponent left a real-time game: claim the "win" (or a "draw").
  claim(outcome) { return this.send(`/api/games/${this.id}/claim`, { outcome }); }

  // The server's time now, in seconds (what the game's clocks count from).
  serverNow() { return (Date.now() + this.offset) / 1000; }

  // "offer" to play again (or find the rematch already started), "accept" the offer on the table
  // or "decline" it. Answers the rematch's id and invitation codes once every player has agreed
  // (the id is null before); until then this game's view, with the offer, is taken as any other.
  async rematch(answer = "offer") {
    const made = await api(`/api/games/${this.id}/rematch`, { method: "POST", body: { answer }, token: this.token });
    if (!made.id && made.game) this.accept(made.game);
    return made;
  }

  // One request at a time: a second click while the first is on its way is dropped. A request
  // that gets no answer at all (the network is down: fetch itself fails, with no status) is not
  // lost: it is kept, the page is told ("queued"), and it is sent again, with the same ply guard,
  // once the browser is back online or the socket reconnects; if the game moved on meanwhile,
  // the server refuses it as stale and the page says so.
  async send(path, body) {
    if (this.busy) return;
    this.busy = true;
    try {
      const answer = await api(path, { method: "POST", body, token: this.token });
      this.pending = null;
      this.accept(answer.game);
    } catch (e) {
      if (e.status !== undefined) throw e;
      this.pending = { path, body };
      this.onConnection("queued");
    } finally { this.busy = false; }
  }

  // Sends the request kept while the network was down, if any.
  async flush() {
    if (!this.pending || this.busy || this.closed) return;
    const { path, body } = this.pending;
    this.pending = null;
    try { await this.send(path, body); } catch (e) { this.onConnection("error", e.message); }
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/games/${this.id}/ws`);
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 0;
      this.onConnection("live");
      this.flush();
      this.greeting = `hello-${++hellos}`;
      socket.send(JSON.stringify({ type: "hello", token: this.token, id: this.greeting, presence: true, chat: true, words: true }));
    };
    socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    socket.onclose = () => {
      if (this.closed) return;
      this.onConnection("reconnecting");
      this.retry += 1;
      setTimeout(() => this.connect(), reconnectDelay(this.retry));
    };
  }

  // The socket sends the whole game once ("state"), then only what changed ("update": the
  // fields that differ, the fields gone, and the moves to keep and to add). Until the answer to
  // our hello, the views are a spectator's: skipped (see the top of this file).
  receive(message) {
    if (this.greeting !== null) {
      if (message.type === "error") {
        // Nothing but the hello was sent on this socket, so it was refused (e.g. too many
        // messages from this address): say so, and start again on a new socket (with back-off).
        this.onConnection("error", message.error.message);
        this.socket?.close();
        return;
      }
      if (message.type === "presence") this.presence = message;  // kept until the state comes
      if (message.type !== "state" || message.id !== this.greeting) return;
      this.greeting = null;
      if (typeof message.now === "number") this.offset = message.now * 1000 - Date.now();
    }
    if (message.type === "state") {
      this.live = message.game;
      this.accept(this.live);
    } else if (message.type === "update" && this.live) {
      const next = { ...this.live };
      for (const key of message.removed || []) delete next[key];
      Object.assign(next, message.game);
      next.moves = this.live.moves.slice(0, message.moves.keep).concat(message.moves.add);
      this.live = next;
      this.accept(next);
    } else if (message.type === "presence") {
      // Who has the game open (a seat's page) and how many watch: redrawn beside the seats.
      this.presence = message;
      this.onPresence?.(message);
    } else if (message.type === "chat") {
      // The table chat this page may read: a backlog after the hello, then each new message.
      this.onChat?.(message);
    } else if (message.type === "rated") {
      // The finished game's ratings were settled: the page reads each player's change now.
      this.onRated?.(message);
    } else if (message.type === "error") {
      this.onConnection("error", message.error.message);
    }
  }

  close() {
    this.closed = true;
    window.removeEventListener("online", this.onOnline);
    this.listeners.clear();
    this.socket?.close();
  }
}
