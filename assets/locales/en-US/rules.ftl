# `/rules`: a short summary of each game, how to read its board and how moves are written.
# (A line that starts with `**` is written `{"**"}…`: Fluent reserves a leading `*`.)

rules-inphexion =
    {"**"}inpHeXion** — a Hex-like connection game on a rhombus (7×7 by default, 4–11).
    • White connects top and bottom, Black left and right; White starts by placing a disc.
    • A regular move pushes one opponent disc to an empty neighbour and puts one of your own discs on the cell it left.
    • Discs that become surrounded are relocated by their owner's opponent.
    • You win by joining your two edges; a player with no legal move loses.
    • Options: `size`, `pie` (Black may swap after the first disc), `free_reply`, `neutral`.
    {"**"}Reading the board**: columns are letters from the left (a, b, c …), rows numbers from the top (1, 2, 3 …): `c3` is column c, row 3.
    {"**"}Moves**, in words and notation:
    • Place a disc on d4 — `d4` (the first move, or Black's free reply)
    • Swap colours — `swap` (pie rule)
    • Push the disc on c3 to d3 (yours goes on c3) — `c3-d3`
    • … and relocate e5 to a1 — `c3-d3 e5>a1`
    {"**"}Play** with the **Move** button under the board (it builds a legal move step by step and shows it before you play it), or with `/move`, whose suggestions list only legal moves.

# The pictures of the rules page on the web (the page /rules/inphexion).
rules-figure-inphexion-start = The empty 7×7 board at the start: White joins top and bottom, Black left and right.
rules-figure-inphexion-place = White's first move, d4: a disc placed.
rules-figure-inphexion-push = Black's move d4-e3: White's disc is pushed from d4 to e3, and a black disc goes on d4.

rules-exxit =
    {"**"}EXXIT** — build the world from hexagonal tiles and score islands.
    • Each turn: a *dance of destruction* if one is possible (move a stack along a line, dropping discs one per cell onto an opponent stack; if a dance can drop discs into outer space, one of those must be chosen), otherwise build: lay a tile to expand the world, or place a disc; otherwise pass.
    • The game ends when the tiles run out, after two passes in a row, or on a third repetition; the higher island score wins (largest island 2 points a tile, the others 1).
    • Options: `tiles` (39, 29 or 19), `expert` (players lay the first six tiles), `pie`.
    {"**"}Reading the board**: each cell is named by two numbers `q,r` written in it; `0,0` is the centre, `r` grows downwards and `q` to the right.
    {"**"}Moves**, in words and notation:
    • Dance the stack on 1,-1 onto 0,0 — `1,-1-0,0` (stack, then the stack it hits)
    • Lay a tile at -1,0 — `+-1,0` (the outer-space stack that becomes a tile; a chain may follow)
    • Place a disc on 0,1 — `0,1`
    • Pass — `pass`; Swap colours — `swap` (pie rule)
    {"**"}Play** with the **Move** button under the board (it builds a legal move step by step and shows it before you play it), or with `/move`, whose suggestions list only legal moves.

# The pictures of the rules page on the web (the page /rules/exxit).
rules-figure-exxit-start = The world at the start: a few tiles, with outer space around them.
rules-figure-exxit-place = Silver places a disc on 0,0, then Red on 1,-1.
rules-figure-exxit-dance = A dance of destruction, 0,0-1,-1: Silver's stack on 0,0 dances onto Red's stack on 1,-1 (a dance is compulsory whenever one is possible).
