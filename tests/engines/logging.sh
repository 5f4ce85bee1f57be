#!/bin/sh
# Stockfish, with every line hector sends it copied to $HECTOR_ENGINE_LOG:
# the tests read what was asked of the engine (`go wtime ...`,
# `setoption name UCI_Chess960 ...`, `position fen ...`).
sf=$(command -v stockfish || echo /usr/games/stockfish)
tee -a "$HECTOR_ENGINE_LOG" | "$sf"
