# The page's end of the engine: the transport to the engine's worker (engine_client.py)
# and the reading of its replies (replies.py). No DOM: the layers above say what the
# player sees.
