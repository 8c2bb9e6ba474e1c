"""What a learner's message is about, offline: the demo model ranks everything the classroom holds (prepared
answers with their keywords, scene titles and slide elements, lesson scripts, quiz questions) against it.

Words are stemmed with Snowball in the classroom's language (snowballstemmer: pure Python, the stemmer Sphinx
uses), so "evaporates" finds "evaporation"; text written without spaces (Chinese, Japanese) is read as its
characters' pairs (bigrams: "导数是什么" holds "导数"), and a message's pair that only straddles two of the
material's words or stopwords ("数是") is no word of its own; a word the classroom never uses is matched to the
closest one it does (rapidfuzz), so typos still land; passages are ranked by BM25, so rare words weigh more than
common ones; and a message whose weighty words the best passage does not cover is off-topic. Deterministic,
nothing downloaded.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Literal

from maic_tui.classroom.answer_reading import SPACELESS, narrow, spaceless

if TYPE_CHECKING:
    from collections.abc import Set

    from maic_tui.classroom.models import Classroom

PassageKind = Literal["answer", "scene", "script", "question"]
K1, B = 1.2, 0.75  # BM25's usual constants
BODY_SHARE = 0.5  # a word found only in an answer's speech, not its question or keywords, covers this much
COVERED = 0.4  # the share of the message's weight (IDF) the best passage must contain to count as on-topic
TYPO_SCORE = 82  # rapidfuzz ratio above which an unknown word is read as a classroom word
SOUND_MIN_LETTERS = 6  # a word spelt as it sounds is matched only from this length, on the same first letter
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|\d+(?:\.\d+)?")
_SPACELESS_RUN = re.compile(f"({SPACELESS}+)")
_GLUE = frozenset("的了是吗呢吧啊呀嗎么麼和与與也都就很把被这那這个個们們我你他她它")  # Chinese particles, pronouns
# Stopwords that stay stopwords even in a scene's title ("The loop"); others there are topic words ("for loops").
FUNCTION_WORDS = frozenset(("the", "a", "an", "what", "who", "how", "why", "when", "where", "which", "is", "are",
                            "and", "or", "of", "to", "your", "you", "our", "we", "it", "its", "up", "down"))
UNKNOWN_WEIGHT = 1.0  # a word the classroom never uses weighs as much as its rarest word: likely off-topic


@dataclass(frozen=True, slots=True)
class Passage:
    kind: PassageKind
    key: str  # the answer's, scene's or question's id
    text: str
    scene: int | None = None  # the scene it belongs to


@dataclass(frozen=True, slots=True)
class Match:
    passage: Passage
    score: float  # BM25
    covered: float  # the share of the message's weight found in the passage (0..1)


@dataclass
class MaterialIndex:
    language: str
    passages: list[Passage] = field(default_factory=list)
    _terms: list[Counter[str]] = field(default_factory=list)
    _heads: list[set[str]] = field(default_factory=list)  # the stems of each passage's head
    _df: Counter[str] = field(default_factory=Counter)
    _vocabulary: list[str] = field(default_factory=list)  # every surface word of the material
    _sounds: dict[str, str] = field(default_factory=dict)  # how a word sounds -> the material's word (built lazily)
    stop: frozenset[str] = frozenset()
    title_words: set[str] = field(default_factory=set)  # words of scene titles: topic words even if common ("for")

    @classmethod
    def of(cls, classroom: Classroom) -> MaterialIndex:
        index = cls(classroom.language, stop=stopwords(classroom.language))
        index.title_words = {w for scene in classroom.scenes for w in words_of(scene.title)} - FUNCTION_WORDS
        for answer in classroom.demo.answers:
            speech = " ".join(step.say for turn in answer.turns for step in turn.steps if step.say)
            keywords = " ".join(answer.keywords)
            index._add(Passage("answer", answer.id, f"{answer.question} {keywords} {keywords} {speech}"),
                       head=f"{answer.question} {keywords}")
        for number, scene in enumerate(classroom.scenes):
            # The title twice: it says what the scene is about better than any one element.
            index._add(Passage("scene", scene.id, " ".join([scene.title, scene.title,
                                                             *map(element_text, scene.elements)]), number))
            speech = " ".join(step.say or step.discussion or step.prompt for step in scene.script
                              if step.say or step.discussion or step.prompt)
            if speech:
                index._add(Passage("script", scene.id, speech, number))
            for question in scene.graded():
                index._add(Passage("question", question.id,
                                   " ".join([question.question, *question.keywords, *question.answer]), number))
        return index

    def _add(self, passage: Passage, head: str | None = None) -> None:
        """``head``: the part that says what the passage is about (an answer's question and keywords); the rest
        (an answer's speech) counts for less when deciding whether a message is about it."""
        kept = self._kept(passage.text)
        self._vocabulary.extend(w for w in kept if len(w) > 2 or spaceless(w[0]))
        terms = Counter(stem_all(self.language, kept))
        self.passages.append(passage)
        self._terms.append(terms)
        self._heads.append(set(stem_all(self.language, self._kept(head))) if head is not None else set(terms))
        self._df.update(terms.keys())

    def _kept(self, text: str) -> list[str]:
        return [w for w in words_of(text) if w not in self.stop or w in self.title_words]

    def terms(self, text: str) -> list[str]:
        """The message's topic words, typos mended against the classroom's words, stemmed."""
        from rapidfuzz import fuzz, process

        known = set(self._vocabulary)
        mended = []
        for word in words_of(text, known | self.stop):
            if (word in self.stop and word not in self.title_words) or word.isdigit():  # "2+2" is no topic
                continue
            if word not in known and len(word) >= 4 and not word.isdigit():
                found = process.extractOne(word, known, scorer=fuzz.ratio, score_cutoff=TYPO_SCORE)
                word = found[0] if found else self._sounding_like(word) or word
            mended.append(word)
        return stem_all(self.language, mended)

    def _sounding_like(self, word: str) -> str | None:
        """A classroom word that sounds like this misspelling ("evaporashun": evaporation), English only."""
        if not self.language.startswith("en") or len(word) < SOUND_MIN_LETTERS:  # short words sound alike too
            return None                                                          # often ("cook", "quick")
        if not self._sounds:
            for known in self._vocabulary:
                if len(known) >= SOUND_MIN_LETTERS:
                    self._sounds.setdefault(sound_of(known), known)
        found = self._sounds.get(sound_of(word))
        return found if found is not None and found[0] == word[0] else None

    def topic_words(self, text: str) -> list[str]:
        """The message's own words that the classroom's material also uses, as the learner wrote them."""
        known = set(self._vocabulary)
        return [word for word in words_of(text) if word in known and word not in self.stop]

    def idf(self, term: str) -> float:
        n, df = len(self.passages), self._df.get(term, 0)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def rank(self, text: str, kinds: tuple[PassageKind, ...] = ("answer", "scene", "script", "question")
             ) -> list[Match]:
        """Passages of those kinds, best first; empty when the message has no topic words at all."""
        query = self.terms(text)
        if not query or not self.passages:
            return []
        rarest = max((self.idf(term) for term in self._df), default=1.0)
        weight = {term: self.idf(term) if term in self._df else UNKNOWN_WEIGHT * rarest for term in query}
        total = sum(weight.values())
        average = sum(sum(t.values()) for t in self._terms) / len(self._terms)
        found: list[Match] = []
        for passage, terms, head in zip(self.passages, self._terms, self._heads, strict=True):
            if passage.kind not in kinds:
                continue
            length = sum(terms.values())
            score, covered = 0.0, 0.0
            for term in set(query):
                count = terms.get(term, 0)
                if count:
                    score += self.idf(term) * count * (K1 + 1) / (count + K1 * (1 - B + B * length / average))
                    covered += weight[term] * (1.0 if term in head else BODY_SHARE)
            if score > 0:
                found.append(Match(passage, score, covered / total))
        return sorted(found, key=lambda m: (-m.score, self.passages.index(m.passage)))

    def best(self, text: str, kinds: tuple[PassageKind, ...] = ("answer", "scene", "script", "question")
             ) -> Match | None:
        """The best passage if the message is about it (enough of its weighty words there), else None."""
        ranked = self.rank(text, kinds)
        return ranked[0] if ranked and ranked[0].covered >= COVERED else None


def element_text(element: object) -> str:
    for name in ("text", "alt", "latex"):
        value = getattr(element, name, None)
        if isinstance(value, str):
            return value
    items = getattr(element, "items", None)
    if isinstance(items, list):
        return "; ".join(items)
    rows = getattr(element, "rows", None)
    if isinstance(rows, list):  # "cell: cell" per row after the header, as a person reads a table out
        return "; ".join(": ".join(cell for cell in row if cell) for row in rows[1:] or rows)
    return ""


# English spellings of one sound, folded to one form, so that a word spelt as it sounds finds the word it means.
_SOUNDS = [(re.compile(pattern), folded) for pattern, folded in (
    (r"(?:tion|sion|shun|shon|tian|cion)", "shn"), (r"ph", "f"), (r"ck", "k"), (r"c(?=[eiy])", "s"), (r"c", "k"),
    (r"q", "k"), (r"x", "ks"), (r"z", "s"), (r"dge", "j"), (r"gh", ""), (r"^wr", "r"), (r"^kn", "n"),
    (r"(?<=.)[aeiouy]+", "a"), (r"(.)\1+", r"\1"), (r"(?<=...)a$", ""),
)]


def sound_of(word: str) -> str:
    """A word as it sounds, roughly: spellings of one sound folded, vowels after the first letter made one."""
    for pattern, folded in _SOUNDS:
        word = pattern.sub(folded, word)
    return word


def words_of(text: str, known: Set[str] | None = None) -> list[str]:
    """The text's words, case and width folded; a run written without spaces as its characters' pairs (a lone
    character as itself). With ``known`` (a message read against the material), a pair that shares a character
    with a known pair or character and is not known itself is left out: it straddles two words."""
    words: list[str] = []
    for word in _WORD.findall(narrow(text).casefold()):
        for part in _SPACELESS_RUN.split(word.replace("’", "'")):
            if part and spaceless(part[0]):
                words += _pairs(part, known)
            elif part:
                words.append(part)
    return words


def _pairs(run: str, known: Set[str] | None) -> list[str]:
    pairs = [run[i:i + 2] for i in range(len(run) - 1)] or [run]
    # A pair with a particle in it ("么是", "的三") is two words' edges, not a word.
    pairs = [pair if len(pair) == 1 or not _GLUE.intersection(pair) or (known and pair in known) else ""
             for pair in pairs]
    if known is None:
        return [pair for pair in pairs if pair]
    covered = {i + k for i, pair in enumerate(pairs) if pair in known for k in range(len(pair))}
    covered |= {i for i, char in enumerate(run) if char in known}
    singles = [char for char in run if char in known and len(run) > 1]
    return [pair for i, pair in enumerate(pairs)
            if pair and (pair in known or not covered & {i, i + 1})] + singles


@cache
def stopwords(language: str) -> frozenset[str]:
    """The language's stopwords (``data/stopwords/<code>.txt``); none for a language without a list: IDF alone
    then tells common words from rare ones."""
    from importlib.resources import files

    resource = files("maic_tui.data").joinpath("stopwords", f"{language.split('-')[0]}.txt")
    if not resource.is_file():
        return frozenset()
    lines = resource.read_text(encoding="utf-8").splitlines()
    return frozenset(word for line in lines if not line.startswith("#") for word in line.split())


@cache
def _stemmer(language: str) -> object:
    import snowballstemmer  # type: ignore[import-untyped]

    names = {"en": "english", "fr": "french", "de": "german", "es": "spanish", "it": "italian", "pt": "portuguese",
             "nl": "dutch", "sv": "swedish", "no": "norwegian", "da": "danish", "fi": "finnish", "ru": "russian",
             "ar": "arabic", "ca": "catalan", "el": "greek", "pl": "polish", "tr": "turkish", "cs": "czech",
             "hu": "hungarian", "ro": "romanian", "id": "indonesian", "fa": "persian", "hi": "hindi"}
    name = names.get(language.split("-")[0], "english")
    return snowballstemmer.stemmer(name if name in snowballstemmer.algorithms() else "english")


def stem_all(language: str, words: list[str]) -> list[str]:
    stemmer = _stemmer(language)
    return list(stemmer.stemWords(words))  # type: ignore[attr-defined]
