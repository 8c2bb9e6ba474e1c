"""The interface in other languages (issue 53 targets in brackets). All figures from this run.

  - the share of the interface's messages each language's catalog translates                     [100 %]
  - the first frame of `maic-tui derivatives` (demo model) with a Chinese interface, beside the same with an
    English one, interleaved on the same machine                                                  [<= 1.1x]
"""

from __future__ import annotations

import statistics

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from bench.tui_bench import first_frame
from maic_tui.i18n import DOMAIN, ENGLISH, LANGUAGES, LOCALE_DIR

RUNS = 7


def translated_share() -> dict[str, float]:
    """Per language, the code's messages its catalog translates (English is the code's own: all of them)."""
    root = LOCALE_DIR.parent.parent
    found = extract_from_dir(str(root), method_map=[("maic_tui/**.py", "python")], keywords=DEFAULT_KEYWORDS)
    wanted = {message if isinstance(message, str) else message[0] for _, _, message, _, _ in found}
    shares = {ENGLISH: 1.0}
    for language in LANGUAGES:
        if language == ENGLISH:
            continue
        with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
            catalog = read_po(file, locale=language)
        done = {message.id if isinstance(message.id, str) else message.id[0] for message in catalog
                if message.id and "fuzzy" not in message.flags
                and all(form.strip() for form in (message.string if isinstance(message.string, tuple)
                                                  else (message.string,)))}
        shares[language] = len(wanted & done) / len(wanted)
    return shares


def main() -> None:
    print("The interface in other languages")
    shares = translated_share()
    print("  interface messages translated: " + ", ".join(f"{language} {share:.0%}"
                                                          for language, share in shares.items()) + "  (target 100 %)")
    english, chinese = [], []
    for _ in range(RUNS):  # interleaved, so both see the same machine
        english.append(first_frame(language="en")[0])
        chinese.append(first_frame(language="zh_CN")[0])
    en, zh = statistics.median(english), statistics.median(chinese)
    print(f"  first frame of `maic-tui derivatives` with LANGUAGE=zh_CN: {zh * 1000:.0f} ms, with LANGUAGE=en: "
          f"{en * 1000:.0f} ms, medians of {RUNS} (ratio {zh / en:.2f}x; target <= 1.1x)")


if __name__ == "__main__":
    main()
