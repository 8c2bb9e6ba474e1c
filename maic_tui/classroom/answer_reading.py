"""A learner's answer read as people type it (ARCHITECTURE.md, *The lesson*): an option by its letter with or without
punctuation (``b``, ``B)``, ``(b)``, ``b.``), by its number or ordinal as the numbered lists show them (``1``,
``(1)``, ``option 2``, ``the second one``, ``1 and 3``), its label or value with spacing, case and punctuation ignored
(``2,3,4`` is ``2, 3, 4``), a picked line (``B) label``), several in plain language (``A and C``, ``speed and
acceleration``, ``a, c``) after an opening such as "I think"; a short answer compared with the accepted forms the
same way; a guess against a question's expected answers (``says_expected``); a reply that only asks to go on
(``GO_ON``). Nothing typed is ever run: answers are only compared as text.

In the class's language too: full-width letters and digits ("Ｂ", "１") are read as their narrow forms; Chinese and
Japanese, written without spaces, are read without them ("我选B", "第二个", "A和C", "A、C"), and a keyword is found
inside a run of such text (``names_keyword``), where there is no word boundary to find it at."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from maic_tui.classroom.lesson import QuizQuestion

# A reply that only asks to go on (at a pause, or after Q&A): the lesson continues without a turn, and a pause's
# option that says so is no answer to take up.
GO_ON = re.compile(r"^\s*(go on|continue|continue the lesson|next|ok(ay)?|carry on|move on|"
                   r"let'?s (go|go on|move on|continue)|ready|got it|no(pe)?|no questions?|"
                   r"继续|下一步|下一个|好的?|明白了?|懂了|没有?问题|沒有?問題|繼續|続けて|次へ?|はい|大丈夫(です)?|"
                   r"sigue|seguimos|contin[uú]a|siguiente|adelante|vale|listo|continuer|continue[sz]|suivant|"
                   r"weiter|fortfahren|дальше|продолжа(й|йте)|تابع|استمر|التالي)"
                   r"\s*[.!。！]*\s*$", re.IGNORECASE)
# What people put before an answer; dropped before reading it.
_OPENING = re.compile(r"^(?:i\s+think|i'?d\s+say|i\s+would\s+say|i\s+guess|i\s+choose|i\s+pick|maybe|probably|"
                      r"my\s+answer\s+is|the\s+answer\s+is|answer\s*:|it'?s|it\s+is|both|all\s+of|"
                      r"我(?:觉得|覺得|认为|認為|想|猜)(?:是)?|我选择?|我選擇?|[选選](?:择|擇)?(?![项項])|答案(?:是|:)|应该是|應該是|可能是|是|"
                      r"都是|答えは|creo\s+que(?:\s+es)?|pienso\s+que|la\s+respuesta\s+es|es\b|"
                      r"je\s+pense\s+que|c'est|la\s+réponse\s+est|ich\s+(?:denke|glaube)|die\s+antwort\s+ist|"
                      r"я\s+думаю|ответ)\s*:?\s*", re.IGNORECASE)
# What people put after an answer ("evaporation i think?"); dropped too.
_CLOSING = re.compile(r"[\s,，]*(?:\b(?:i\s+think|i\s+guess|maybe|probably|right|no|i\s+believe)\b|"
                      r"吧|吗|嗎|呢|啊|对吧|對吧|だと思います|です|かな)?\s*[?!.。]*\s*$", re.IGNORECASE)
# Between several answers: punctuation, "and", "&", "plus", "as well as".
_BETWEEN = re.compile(r"\s*(?:[;,/&+、]|\band\b|\bplus\b|\bas\s+well\s+as\b|和|与|與|及|以及|还有|還有|跟|と|や|"
                      r"\by\b|\bet\b|\bund\b|\bи\b|\bو)\s*", re.IGNORECASE)
_LETTER = re.compile(r"^[(\[]?\s*([A-Za-z])\s*[)\].:]?$")  # a, A), (b), [c], d., e:
_PICKED = re.compile(r"^[(\[]?([A-Za-z])[)\].:]\s+(.+)$")  # "B) label", as the app's option list sends a pick
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_HAN_NUMBERS = "一二三四五六七八九十"
# An option by its place in Chinese or Japanese: "第二个", "第2个", "第二项", "选项2", "B选项", "2番", "二番目"
_HAN_PLACE = re.compile(r"^(?:第|选项|選項|选|選)?\s*(?P<place>\d{1,2}|[a-z]|[一二三四五六七八九十])\s*"
                        r"(?:个|個|项|項|选项|選項|番目?|つ目|の)?$", re.IGNORECASE)
# An option by its place: "1", "(1)", "#2", "no. 2", "option 2", "the second one", "2nd", "letter b"
_PLACE = re.compile(r"^(?:the\s+|la\s+|el\s+|le\s+|die\s+)?(?:(?:options?|choices?|answers?|numbers?|no\.?|letters?|"
                    r"opci[oó]n|respuesta|choix|réponse|antwort|вариант|#)\s*)?[(\[]?\s*"
                    r"(?P<place>\d{1,2}|[a-z]|\d{1,2}(?:st|nd|rd|th)|" + "|".join(_ORDINALS) + r")"
                    r"\s*[)\].:]?(?:\s+(?:one|option|choice|answer))?$", re.IGNORECASE)


QUESTION_MARKS = ("?", "？", "؟")  # how Latin, Chinese and Japanese, and Arabic scripts end a question


def asks(text: str) -> bool:
    """The text ends with a question mark, in any script ("…斜率是多少？", "…؟")."""
    return text.rstrip().endswith(QUESTION_MARKS)


def narrow(text: str) -> str:
    """Full-width letters, digits, punctuation and spaces ("Ｂ", "１", "（", the ideographic space) as their
    ASCII forms; everything else as typed (NFKC on the whole would also make "x²" "x2")."""
    return "".join(unicodedata.normalize("NFKC", ch) if unicodedata.decomposition(ch).startswith("<wide>") else ch
                   for ch in text)


# The scripts written without spaces between words: CJK (with kana), Thai, Lao, Myanmar, Khmer.
SPACELESS = "[\u2e80-\u9fff\uf900-\ufaff\U00020000-\U0002ffff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]"
_SPACELESS = re.compile(SPACELESS)


def spaceless(char: str) -> bool:
    """A character of a script written without spaces between words."""
    return bool(_SPACELESS.match(char))


def keyword_at(keyword: str, text: str) -> re.Match[str] | None:
    """Where ``text`` names ``keyword`` (any case and width): at the start of a word (a keyword may be a stem,
    "chang"), or anywhere when the keyword starts in a script written without spaces ("变化率" in "导数是变化率")."""
    wanted = narrow(keyword.strip())
    if not wanted:
        return None
    start = "" if spaceless(wanted[0]) else r"\b"
    return re.search(rf"{start}{re.escape(wanted)}", narrow(text), re.IGNORECASE)


def names_keyword(keyword: str, text: str) -> bool:
    """``text`` names ``keyword`` (``keyword_at``)."""
    return keyword_at(keyword, text) is not None


def squashed(text: str) -> str:
    """A text with case, spacing and punctuation ignored: only its letters and digits, in order."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def compact(text: str) -> str:
    """A short answer with case and spacing ignored, and the punctuation around it: a code answer keeps its
    operators (``n*2`` is not ``n+2``), while ``[n*2 for n in [1,2,3]]`` is ``[n * 2 for n in [1, 2, 3]]``."""
    folded = unicodedata.normalize("NFKC", text).casefold().strip().strip("`'\"“”‘’").strip()
    return "".join(folded.rstrip(".!?").split())


def accepted(question: QuizQuestion, text: str) -> bool:
    """The short answer is one of the question's accepted forms (or its model answer)."""
    typed = compact(text)
    return bool(typed) and any(typed == compact(form) for form in (*question.accept, *question.answer))


def no_answer(question: QuizQuestion, reply: str | Sequence[str]) -> bool:
    """A reply that only asks to go on ("go on", "next", "ok") and names no option nor an accepted form: at a
    question asked, it is no answer to grade."""
    if not isinstance(reply, str) or not GO_ON.match(narrow(reply)):
        return False
    known = {option.value for option in question.options}
    named = _option(question, reply.strip().rstrip(".!")) is not None  # an option called "No" or "Next"
    return not named and not accepted(question, reply) and not known.intersection(read_choices(question, reply))


def read_choices(question: QuizQuestion, reply: str | Sequence[str]) -> list[str]:
    """Option values from the learner's reply; an item that names no option is kept as typed (graded wrong)."""
    if not isinstance(reply, str):
        return [_option(question, item) or item for item in reply]
    text = narrow(reply).strip()
    for _ in range(3):  # "I think it's …": one opening after another
        text = _OPENING.sub("", text).strip()
    text = _CLOSING.sub("", text).rstrip(".!")
    whole = _option(question, text)
    if whole is not None:
        return [whole]
    items = [item for item in _BETWEEN.split(text) if item.strip()]
    if len(items) == 1 and all(_LETTER.match(word) or word.isdigit() for word in text.split()):
        items = text.split()  # "a c", "1 3"
    values = [_option(question, item) or item.strip() for item in items]
    return list(dict.fromkeys(values))  # a repeat counts once


def _option(question: QuizQuestion, item: str) -> str | None:
    item = narrow(item).strip()
    letter = _LETTER.match(item)
    picked = _PICKED.match(item)
    typed = squashed(item)
    for number, option in enumerate(question.options):
        own_letter = chr(ord("a") + number)
        if letter is not None and letter.group(1).casefold() == own_letter:
            return option.value
        if picked is not None and picked.group(1).casefold() == own_letter and (
                squashed(picked.group(2)) == squashed(option.label)):
            return option.value
        if typed and typed in (squashed(option.label), squashed(option.value)):
            return option.value
    place = place_named(item)  # an option's own label ("2") is read first, its place only after
    return question.options[place].value if place is not None and place < len(question.options) else None


def place_named(item: str, letters: bool = True) -> int | None:
    """The index of the option an item names by its number (from 1), ordinal or (with ``letters``) letter, as a
    numbered list of options or suggestions shows them ("2", "(2)", "option 2", "the second one"); None if none."""
    item = narrow(item).strip()
    found = _PLACE.match(item) or _HAN_PLACE.match(item)
    if found is None:
        return None
    place = found.group("place").casefold()
    if place in _HAN_NUMBERS:
        return _HAN_NUMBERS.index(place)
    if not letters and place.isalpha() and len(place) == 1:
        return None
    if place in _ORDINALS:
        return _ORDINALS.index(place)
    digits = place.rstrip("stndrh")
    if digits.isdigit():
        return int(digits) - 1 if int(digits) >= 1 else None
    return ord(place) - ord("a") if len(place) == 1 else None


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_TERM = re.compile(r"[^\W_]+(?:[\^.][^\W_]+)*|[\^]")
FUZZY_WORD = 85  # rapidfuzz ratio at which a longer word is read as the expected one ("precipitaton")


def _terms(text: str) -> list[str]:
    """A reply's words and terms, case and the spacing around ``^`` and ``*`` ignored ("5 x ^ 4" is "5 x^4")."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("*", " ")
    folded = re.sub(r"\s*\^\s*", "^", folded)
    return _TERM.findall(folded)


def says_expected(expects: Sequence[str], reply: str) -> bool:
    """The reply gives one of the expected answers: its words in order, among others ("oh wait 5x^4", "evaporation,
    condensation and precipitation"), a longer word misspelt a little; an answer of numbers only with exactly those
    numbers ("6" is not "16", "0, 2, 4" is not "0, 2, 4, 6")."""
    from rapidfuzz import fuzz

    typed = _terms(reply)
    numbers = [term for term in typed if _NUMBER.fullmatch(term)]
    for form in expects:
        wanted = _terms(form)
        if not wanted:
            continue
        if all(_NUMBER.fullmatch(term) for term in wanted):
            if numbers == wanted:
                return True
            continue
        if squashed(form) and not any(ch.isdigit() for ch in form) and squashed(form) in squashed(reply):
            return True
        left = iter(typed)
        if all(any(term == word or (len(term) >= 5 and fuzz.ratio(term, word) >= FUZZY_WORD) for word in left)
               for term in wanted):
            return True
    return False
