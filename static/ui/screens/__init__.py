# The screens, under the page's assembly: home, setup and quick play, the score-sheet
# mode, and the screens built once the page is ready (features.py: replays, records,
# the daily challenge, the Bot lab, play by link). They use the players, the saves and
# the board below them, never the page above them.
