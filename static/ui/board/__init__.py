# The board: the controller of the game on the table (controller.py), its drawing
# (render.py, result.py, board_parts.py: the parts the layers above register), its
# layout (shapes.py) and what it plays for what just happened (cues.py).
