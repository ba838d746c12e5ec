// The game's clocks, above the board: each seat's time left, the running one counted down ten
// times a second from the server's time. The server is the clock (table/clocks.py): the page only
// shows it, and a clock that reaches zero waits at 0:00 for the server to say it fell. Low time
// turns a clock red and, if the player turned the sound on, beeps once on their own clock. In a
// real-time game of two, once the opponent's page has been gone long enough, the player still
// there may claim the win or a draw (table/timeouts.py).
import { h, clear } from "../dom.js";
import { getClocks, showError } from "../api.js";
import { t, seatName, clockWords } from "../text.js";

const SOUND_KEY = "boardplay.clockSound";
const DAY = 86400;
let abandonAfter = null; // seconds a real-time opponent must be gone (the server's setting)

// "4:05", "0:07.3" (tenths under ten seconds), "1:02:03", "2d 5h" (correspondence).
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s >= DAY) return t("clock.daysHours", { d: Math.floor(s / DAY), h: Math.floor((s % DAY) / 3600) });
  if (s < 10) return `0:0${(Math.floor(s * 10) / 10).toFixed(1)}`; // never more than is left
  const whole = Math.floor(s);
  const [hours, minutes, secs] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`;
}

// Below this a clock shows red: a tenth of the time a seat starts with, between 10 s and a
// minute for real-time games.
function lowAt(control) {
  return control.days ? control.days * DAY * 0.1 : Math.min(60, Math.max(10, control.base * 0.1));
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.value = 0.15;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch { /* no audio here: the red clock says it */ }
}

export function clockStrip(client) {
  const box = h("div", { class: "clocks", id: "clocks", hidden: true });
  const claimBox = h("div", { class: "claim", id: "claim", "aria-live": "polite", hidden: true });
  let soundOn = false;
  try { soundOn = localStorage.getItem(SOUND_KEY) === "1"; } catch { soundOn = false; }
  const sound = h("label", { class: "clock-sound muted" },
    h("input", { type: "checkbox", id: "clock-sound", checked: soundOn, onchange: (e) => {
      soundOn = e.target.checked;
      try { localStorage.setItem(SOUND_KEY, soundOn ? "1" : "0"); } catch { /* private mode */ }
    } }), t("clock.sound"));
  let game = null;
  let timer = null;
  let beeped = null; // the clock start (since) of the turn a low-time beep was given for
  let goneSince = null; // when this page first saw the opponent's page gone (ms)
  const rows = new Map();

  const left = (seat) => {
    const clock = game.clock;
    let time = clock.left[seat];
    if (clock.running === seat && clock.since !== null && !game.terminal) time -= client.serverNow() - clock.since;
    return Math.max(0, time);
  };

  function tick() {
    if (!game?.clock) return;
    const clock = game.clock;
    const low = lowAt(clock.control);
    for (const [seat, row] of rows) {
      const running = clock.running === seat && !game.terminal;
      // A correspondence clock that is not running has nothing to count: the next move gets the
      // whole allowance again.
      const shown = clock.control.days && !running ? "" : formatClock(left(seat));
      if (row.time.textContent !== shown) row.time.textContent = shown;
      const isLow = running && left(seat) < low;
      row.el.classList.toggle("low", isLow);
      if (isLow && soundOn && (game.your_seats || []).includes(seat) && beeped !== clock.since) {
        beeped = clock.since;
        beep();
      }
    }
    showHeld();
    showClaim();
  }

  // A clock held for players still to come (a tournament's game, table/clocks.py): whom it
  // waits for and when it runs anyway, counted down.
  function showHeld() {
    const clock = game.clock;
    const line = box.querySelector("#clock-held");
    if (!line || !clock.waiting) return;
    const n = Math.max(0, Math.ceil(clock.start_by - client.serverNow()));
    const names = clock.waiting.map((seat) => seatName(game.seats[seat]?.name ?? "")).join(t("result.and"));
    const said = t("clock.held", { names, n });
    if (line.textContent !== said) line.textContent = said;
  }

  function draw() {
    clear(box);
    rows.clear();
    const clock = game.clock;
    box.hidden = !clock;
    if (!clock) return;
    for (const seat of game.seats) {
      const time = h("span", { class: "time", translate: "no" });
      const el = h("div", { class: "clock", role: "timer", "data-seat": seat.seat }, h("span", { class: "clock-name" }, seatName(seat.name)), " ", time);
      el.classList.toggle("running", clock.running === seat.seat && !game.terminal);
      el.classList.toggle("mine", (game.your_seats || []).includes(seat.seat));
      el.classList.toggle("flagged", (clock.flagged || []).includes(seat.seat));
      rows.set(seat.seat, { el, time });
      box.append(el);
    }
    const control = clock.control.days ? clockWords(clock.control)
      : t("clock.realtimeLong", { base: clock.control.base / 60, increment: clock.control.increment });
    box.append(h("div", { class: "clock-extra" }, h("span", { class: "clock-control muted", id: "clock-control" }, control), " ",
      (game.your_seats || []).length && !game.terminal ? sound : ""));
    if (clock.waiting && !game.terminal) box.append(h("p", { class: "clock-held", id: "clock-held", "aria-live": "off" }));
  }

  // The opponent's page is gone: a countdown to when the claim opens (the server's wait, counted
  // from when this page saw them go), then the claim buttons.
  let shown = null; // what the claim box says now: "" (hidden), "wait:<seconds>" or "claim"
  async function showClaim() {
    const clock = game?.clock;
    const mine = game?.your_seats || [];
    const eligible = clock && !clock.control.days && game.seats.length === 2 && mine.length === 1 && !game.terminal && game.status === "active" && clock.running !== null;
    const other = 1 - (mine[0] ?? 0);
    const here = (client.presence?.seats || []).includes(other);
    if (!eligible || here || !client.presence) goneSince = null;
    else if (goneSince === null) goneSince = Date.now();
    if (eligible && goneSince !== null && abandonAfter === null) {
      abandonAfter = 0; // asked once
      try { abandonAfter = (await getClocks())?.abandon_after ?? 30; } catch { abandonAfter = 30; }
    }
    const gone = eligible && goneSince !== null && abandonAfter;
    const wait = gone ? Math.ceil(abandonAfter - (Date.now() - goneSince) / 1000) : 0;
    const state = !gone ? "" : wait > 0 ? `wait:${wait}` : "claim";
    if (state === shown) return;
    const counting = wait > 0 && shown?.startsWith("wait:");
    shown = state;
    if (counting) { // only the number changes (the line itself was announced once)
      claimBox.dataset.wait = String(wait);
      claimBox.querySelector("#claim-wait").textContent = t("clock.claimIn", { n: wait });
      return;
    }
    claimBox.hidden = !state;
    clear(claimBox);
    if (!state) return;
    const name = seatName(game.seats[other].name);
    if (wait > 0) {
      claimBox.dataset.wait = String(wait);
      claimBox.append(t("clock.opponentLeft", { name }), " ", h("span", { class: "muted", id: "claim-wait", "aria-live": "off" }, t("clock.claimIn", { n: wait })));
      return;
    }
    delete claimBox.dataset.wait;
    const claim = (outcome) => client.claim(outcome).catch((e) => showError(e.message));
    claimBox.append(t("clock.opponentLeft", { name }), " ",
      h("button", { type: "button", class: "primary", id: "claim-win", onclick: () => claim("win") }, t("clock.claimWin")));
    if (game.can_draw) claimBox.append(" ", h("button", { type: "button", id: "claim-draw", onclick: () => claim("draw") }, t("clock.claimDraw")));
  }

  function update(next) {
    game = next;
    draw();
    tick();
    const running = game.clock && (game.clock.running !== null || game.clock.waiting) && !game.terminal;
    if (running && !timer) timer = setInterval(tick, 100);
    if (!running && timer) { clearInterval(timer); timer = null; }
  }

  function stop() { if (timer) clearInterval(timer); timer = null; }

  return { box, claimBox, update, presence: () => tick(), stop };
}

// The new-game form's time control: untimed (casual games only), a real-time preset, a custom
// one (minutes and increment) or days per move. `value()` is the request's "clock" (or null);
// `requireClock(on)` takes "untimed" away while the game is rated.
export function clockPicker(offered) {
  const presets = offered?.presets || [];
  const days = offered?.days || [];
  const select = h("select", { id: "clock-select", name: "clock" },
    h("option", { value: "" }, t("clock.untimedCasual")),
    h("optgroup", { label: t("clock.realtimeGroup") },
      presets.map((p) => h("option", { value: `rt:${p.base}:${p.increment}` }, clockWords(p))),
      h("option", { value: "custom" }, t("clock.custom"))),
    h("optgroup", { label: t("clock.correspondenceGroup") },
      days.map((d) => h("option", { value: `d:${d}` }, clockWords({ days: d })))));
  const minutes = h("input", { type: "number", id: "clock-minutes", min: 0.25, max: 180, step: 0.25, value: 10 });
  const increment = h("input", { type: "number", id: "clock-increment", min: 0, max: 180, step: 1, value: 5 });
  const custom = h("span", { class: "clock-custom", hidden: true }, " ",
    h("label", {}, `${t("clock.minutes")} `, minutes), " ", h("label", {}, `${t("clock.increment")} `, increment));
  select.addEventListener("change", () => { custom.hidden = select.value !== "custom"; });
  const element = h("p", { id: "clock-picker" }, h("label", { title: t("clock.pickerTitle") }, `${t("clock.label")} `, select), custom);
  function value() {
    const chosen = select.value;
    if (!chosen) return null;
    if (chosen === "custom") return { base: Math.round(Number(minutes.value) * 60), increment: Number(increment.value) };
    const [kind, a, b] = chosen.split(":");
    return kind === "d" ? { days: Number(a) } : { base: Number(a), increment: Number(b) };
  }
  function requireClock(on) {
    select.options[0].disabled = on;
    if (on && !select.value) { select.value = presets.some((p) => p.base === 600 && p.increment === 5) ? "rt:600:5" : select.options[1].value; select.dispatchEvent(new Event("change")); }
  }
  return { element, value, requireClock, select };
}
