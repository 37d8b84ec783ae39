"""Exception types. Every rejection of user input raises one of these with a message
that names the field and the problem, so callers (CLI, app) can show it as is."""


class MeteorInputError(ValueError):
    """The candidate or a reference cannot be scored (empty, too long, control characters)."""


class MeteorParameterError(ValueError):
    """A parameter is outside its allowed range or an option is unknown."""


class TooLong(MeteorInputError):
    """A side over a length limit that the configuration's max_tokens sets (a caller that can
    raise the limit, such as the command line's --max-tokens, says so)."""


class TooManyTokens(TooLong):
    """A side has more tokens than the configuration's max_tokens."""


class TooManyCharacters(TooLong):
    """A side has more characters than tokenize.max_chars(max_tokens), checked before any other
    work."""


def is_token_limit_reason(reason: str) -> bool:
    """A corpus's not-scored reason (text by then: the skipped segment keeps the message, not
    the exception) that is TooLong's "... has N tokens (characters); the limit is M per side",
    so the command line and the app can add the way past the limit."""
    limit_said = " tokens; the limit is " in reason or " characters; the limit is " in reason
    return limit_said and reason.endswith(" per side")


def is_length_refusal(error: Exception) -> bool:
    """A side over a length limit, or a corpus of which nothing scored with one such reason among
    its segments': where the command line and the app say the way past the limit."""
    if isinstance(error, TooLong):
        return True
    return isinstance(error, NothingScored) and any(is_token_limit_reason(s.reason) for s in error.skipped)


class NothingScored(MeteorInputError):
    """No segment of a corpus could be scored. `skipped`: each segment's (index, reason), for a
    caller that knows the segments' files and lines (corpus.analyze_corpus) to say where."""

    def __init__(self, message: str, skipped: tuple = ()):
        super().__init__(message)
        self.skipped = tuple(skipped)


def reasons_in_brief(reasons, shown: int = 5, separator: str = "; ") -> str:
    """The first `shown` reasons, then how many more: one message that stays short."""
    reasons = list(reasons)
    more = f"{separator}and {len(reasons) - shown:,} more" if len(reasons) > shown else ""
    return separator.join(reasons[:shown]) + more
