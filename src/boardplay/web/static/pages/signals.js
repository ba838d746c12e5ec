// "Your turn" said outside the page too: the tab's title, a badge on the favicon, and (only if
// the player turned it on; remembered in this browser) a short chime when the turn comes round.
import { h } from "../dom.js";
import { t, gameTitle } from "../text.js";
import { turnSound, rememberTurnSound } from "../store.js";

// The favicon: a board square in the site's green, with a red dot when it is your turn.
function icon(badge) {
  const dot = badge ? "<circle cx='24' cy='8' r='7' fill='%23d33c3c' stroke='white' stroke-width='2'/>" : "";
  return `data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect x='2' y='6' width='24' height='24' rx='4' fill='%232a7d5f'/><circle cx='14' cy='18' r='5' fill='white'/>${dot}</svg>`;
}

function faviconLink() {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = h("link", { rel: "icon", id: "favicon", type: "image/svg+xml" });
    document.head.append(link);
  }
  return link;
}

// A soft two-note chime through Web Audio (no sound file to fetch).
function chime() {
  try {
    const audio = new AudioContext();
    [660, 880].forEach((pitch, i) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, audio.currentTime + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + i * 0.18 + 0.3);
      tone.connect(gain).connect(audio.destination);
      tone.start(audio.currentTime + i * 0.18);
      tone.stop(audio.currentTime + i * 0.18 + 0.32);
    });
    setTimeout(() => audio.close(), 1000);
  } catch (e) { console.warn(e); }
}

export function turnSignals() {
  const link = faviconLink();
  const box = h("input", { type: "checkbox", id: "turn-sound" });
  box.checked = turnSound();
  box.addEventListener("change", () => rememberTurnSound(box.checked));
  const toggle = h("label", { class: "sound-toggle" }, box, t("table.sound"));
  let wasYours = null;
  let chimes = 0;

  function update(game) {
    const yours = !!game.your_turn;
    document.title = yours ? t("title.yourTurn", { title: gameTitle(game.game, game.title) }) : t("title.game", { title: gameTitle(game.game, game.title) });
    link.href = icon(yours);
    link.dataset.badge = yours ? "1" : "0";
    // Only a turn that comes round chimes, not the page opening on one.
    if (yours && wasYours === false && box.checked) {
      chimes += 1;
      toggle.dataset.chimes = String(chimes);
      chime();
    }
    wasYours = yours;
  }
  function stop() {
    document.title = "boardplay";
    link.href = icon(false);
    link.dataset.badge = "0";
  }
  return { toggle, update, stop };
}
