"""What kind of message a learner sent, for the offline demo model: a greeting, thanks, goodbye, a question about
the lesson itself, "give me an example", "I don't get it", "quiz me", "sum up", "what do you think?", or an answer
to what the teacher just asked. Plain patterns, in the order they are tried; everything else is a question about
the material (or off-topic), which ``understanding`` decides."""

from __future__ import annotations

import re
from typing import Literal

Intent = Literal["farewell", "thanks", "greeting", "unsure", "about", "quiz", "summary", "confused", "example",
                 "opinion", "why", "disagree"]

_SOURCES: list[tuple[Intent, str]] = [
    ("farewell", r"^\W*(ok(ay)?\W+)?(thanks?( you)?\W+)?(bye|goodbye|good bye|see (you|ya)|that'?s all( for today)?|"
                 r"i'?m done|done for today|gotta go|i have to go)\b"),
    ("thanks", r"^\W*(ok(ay)?\W+)?(thanks?|thank you|thx|ty|cheers|great,? thanks?)\b[\w\s,!.]{0,20}$"),
    ("greeting", r"^\W*(hi|hello|hey|hiya|yo|good (morning|afternoon|evening)|howdy)\b[\w\s,!.]{0,25}$"),
    ("unsure", r"^\W*(idk|i (really )?(don'?t|do not|dont) know|no idea|not sure|dunno|no clue)\W*$"),
    ("about", r"\b(what('?s| is| are)? (this|the|today'?s) (lesson|class|session|topic|course)( about)?|"
              r"what (are|will) we (learn|learning|doing|studying|do|study|cover)|what is this about|"
              r"what'?s (this|it) about|topic of (the|this|today))"),
    ("quiz", r"\b(quiz me|test me|ask me (a |some )?(question|something)|give me a (question|quiz|test)|"
             r"check (my|me)|can you quiz|a quiz)\b"),
    ("summary", r"\b(summar(y|ise|ize)|recap|sum (it |this |that )?up|what (did|have) we (cover|learn|do|see)|"
                r"what we (covered|learned|learnt)|so far)\b"),
    ("confused", r"(\bi (still )?(don'?t|do not|dont) (get|understand|follow)|\bconfus|\bi'?m lost|\blost me|"
                 r"^\W*huh\W*$|^\W*what\?+\W*$|explain (it |that |this )?(again|differently|simpler|more simply)|"
                 r"\bsimpler\b|\bmakes? no sense|\bnot clear\b|\bdidn'?t get|\bwhat do(es)? (you|that|it|this) mean\b|"
                 r"\bcome again\b|\bsay (that|it) again\b)"),
    ("example", r"\b(an? example|another (one|example|case)|examples|for instance|show me|demonstrate|"
                r"draw (it|that|me)|illustrate)\b"),
    ("why", r"^\W*(but |and |ok(ay)?,? )?(why|how come|why (is|does|would|do) (that|it|this)( (so|be|work|matter))?|"
            r"why not|but why)\W*$"),
    ("disagree", r"(\bi (don'?t|do not|dont) (think|agree|believe)( (that|so|it))?\b|\bi disagree\b|\bnot true\b|"
                 r"\bthat'?s (wrong|dumb|stupid|silly|nonsense|not right|boring)\b|^\W*(no way|nonsense|rubbish|nope|"
                 r"wrong)\W*$)"),
    ("opinion", r"^\W*(and )?(what do you think|what'?s your (view|opinion|take)|do you agree|your (view|opinion|"
                r"take))\b[\w\s,]{0,25}\W*$"),
]
# The same kinds said in Chinese (no word boundaries there: a whole message, or a phrase anywhere).
_CHINESE: dict[Intent, str] = {
    "farewell": r"^\W*(再见|再見|拜拜|下次见|今天就到这)", "thanks": r"^\W*(谢谢|謝謝|多谢|多謝|感谢|感謝)\W*\w{0,6}$",
    "greeting": r"^\W*(你好|您好|大家好|嗨|哈喽|早上好|下午好|晚上好)\W*\w{0,8}$",
    "unsure": r"^\W*(我)?(不知道|不清楚|不确定|不確定|没想法)\W*$",
    "about": r"(这节课|這節課|今天的课|今天學|今天学)(讲|講|学|學)?(什么|什麼)",
    "quiz": r"(考考我|出(个|一)?题|测验我|測驗我|问我问题)", "summary": r"(总结|總結|小结|回顾|回顧|概括一下)",
    "confused": r"(不懂|没懂|沒懂|听不懂|聽不懂|不明白|没听懂|糊涂|再说一遍|再說一遍|再解释|再解釋|什么意思|啥意思)",
    "example": r"(举个例子|舉個例子|举例|舉例|例子|画出来|畫出來)",
    "why": r"^\W*(但是|可是)?(为什么|為什麼|为啥|為啥)\W*$",
    "disagree": r"(我不同意|不对吧|不對吧|不可能|胡说|胡說)",
    "opinion": r"^\W*(你怎么看|你怎麼看|你觉得呢|你覺得呢|你同意吗)",
}
_SOURCES = [(intent, f"{pattern}|{_CHINESE[intent]}") for intent, pattern in _SOURCES]
_PATTERNS = [(intent, re.compile(pattern, re.IGNORECASE)) for intent, pattern in _SOURCES]
_ASKS_IN_CHINESE = re.compile(r"什么|什麼|为什么|為什麼|为啥|怎么|怎麼|怎样|怎樣|如何|哪|能不能|可不可以|"
                              r"请问|請問|多少")
QUESTION_START = re.compile(r"^\s*(what|why|how|when|where|who|which|can|could|is|are|does|do|did|should|would|"
                            r"will|explain|tell me)\b", re.IGNORECASE)


def intent_of(message: str) -> Intent | None:
    for intent, pattern in _PATTERNS:
        if pattern.search(message):
            return intent
    return None


def is_question(message: str) -> bool:
    return "?" in message or "？" in message or bool(QUESTION_START.match(message))


# A guess put as a question ("is it 6?", "could it be 5x^4?"): an answer, not a new question.
_GUESS = re.compile(r"^\s*(is it|is that|isn'?t it|it'?s|its|could it be|would it be|maybe|so it'?s|i think|"
                    r"do they|does it|are they|is the answer)\b", re.IGNORECASE)
_ASKS = re.compile(r"^\s*(what|why|how|who|which|can|could|should|would|will|explain|tell me|is|are|do|does|did|"
                   r"(when|where)\s+(is|are|do|does|did|will|would|can|should|was|were)\b)\b", re.IGNORECASE)


def is_new_question(message: str) -> bool:
    """A question of the learner's own, not an answer to the class's (a question mark alone does not make one:
    "5x^3?", "is it 6?")."""
    return bool(_ASKS.match(message) or _ASKS_IN_CHINESE.search(message)) and not _GUESS.match(message)


YES = re.compile(r"^\W*(yes|yeah|yep|yup|sure|definitely|absolutely|of course|i think so|ready|totally|ok(ay)?)\b",
                 re.IGNORECASE)
NO = re.compile(r"^\W*(no|nope|nah|not really|i don'?t think so|never)\b", re.IGNORECASE)
PLAIN_REPLY = 50  # characters: a yes or no with a few words after it, not an argument that starts with one


def plain_yes_no(message: str) -> bool:
    """A short reply that starts with yes or no ("yes definitely", "nope, not really")."""
    return len(message.strip()) <= PLAIN_REPLY and bool(YES.match(message) or NO.match(message))
