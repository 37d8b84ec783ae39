"""Exception types. Every rejection of user input raises one of these with a message
that names the field and the problem, so callers (CLI, app) can show it as is."""


class MeteorInputError(ValueError):
    """The candidate or a reference cannot be scored (empty, too long, control characters)."""


class MeteorParameterError(ValueError):
    """A parameter is outside its allowed range or an option is unknown."""
