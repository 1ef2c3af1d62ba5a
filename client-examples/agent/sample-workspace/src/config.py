# Settings for the demo: editls.searchAndReplace changes lines 6-9 only.
DEFAULT_TIMEOUT = 30  # TODO: make this configurable
RETRIES = 3


def load_config(path):
    # TODO: validate the file
    with open(path) as f:
        return f.read()


class ConfigError(Exception):
    pass
