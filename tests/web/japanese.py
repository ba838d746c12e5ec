"""What a Japanese page may not show: English left on it. ``english_left(shown(page))`` lists
every visible text, selected option, accessible name and tooltip that is an English message of
the catalogue with a different Japanese, or holds a Latin word that is not a name."""

from __future__ import annotations

import re
from typing import Any

from keptnames import RULE_NAMES

from boardplay.i18n import messages

# What a Japanese page may show in Latin letters: the brand, the language's own name, the rule
# names the Japanese rules keep in English (Proteus), Passtally's tile designs (named by their
# halves, as in the rules), "AI", file formats and a publisher's name.
LATIN_OK = RULE_NAMES | {"boardplay", "English", "JSON", "Kadon", "AI"}

# Every visible text node, every selected option, and the accessible names and tooltips of the
# page, except what is marked translate="no" (notation, seeds, links: not words).
SHOWN = """() => {
  const out = [];
  const skip = (el) => !el || el.closest('[translate="no"], option, script, style, #rules-text')
    || !el.checkVisibility({visibilityProperty: true});
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.nodeValue.trim();
    if (text && !skip(n.parentElement)) out.push(text);
  }
  for (const el of document.querySelectorAll('input:not([type]), input[type=text]')) {
    if (!skip(el) && el.value) out.push(el.value);
  }
  for (const el of document.querySelectorAll('select')) {
    const chosen = el.selectedOptions[0];
    if (!skip(el.parentElement) && chosen) out.push(chosen.textContent);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (el.closest('[translate="no"]')) continue;
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = el.getAttribute(name);
      if (value) out.push(value.trim());
    }
  }
  // An SVG's tooltips are <title> elements, never drawn, so the text walk above skips them.
  for (const el of document.querySelectorAll('svg title')) {
    if (!el.closest('[translate="no"]') && el.textContent.trim()) out.push(el.textContent.trim());
  }
  return out;
}"""

KANA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def english_left(texts: list[str], names: re.Pattern[str] | None = None) -> list[str]:
    """The texts that are English on a Japanese page: equal to an English message of the
    catalogue that has a different Japanese, or holding a Latin word that is not a name (the
    rules' and the brand's, or one that ``names`` matches: the players' own)."""
    en, ja = messages("web", "en"), messages("web", "ja")
    english = {en[k] for k in en if en[k] != ja[k] and "{" not in en[k]}
    left = []
    for text in texts:
        rest = names.sub(" ", text) if names is not None else text
        words = [w for w in re.findall(r"[A-Za-z]{3,}", rest) if w not in LATIN_OK]
        if text in english or words:
            left.append(text)
    return left


def shown(page: Any) -> list[str]:
    texts: list[str] = page.evaluate(SHOWN)
    return texts
