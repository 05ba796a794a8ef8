# Learn to play (/learn): the course's texts. A stage's title is learn-<game>-<stage>, a level's
# goal learn-<game>-<level>-goal, a named wrong move's explanation learn-<game>-<level>-<why>
# (assets/learn/<game>.json).

## Answers to a move
learn-illegal = The rules do not allow that move: { $rule }
learn-bad-notation = That is not a move of this game.
learn-missed = That move is legal, but it does not reach the goal. The level starts again. Goal: { $goal }
learn-missed-lost = That move loses the game. The level starts again. Goal: { $goal }

## The rules, in words, for a move they forbid (the rule a reason names).
learn-rule-i1 = the cell is not on the board.
learn-rule-i4 = you have no disc left in hand.
learn-rule-i5 = White's first move places one disc on any cell; only that move places a disc from hand.
learn-rule-i6 = a turn moves one of your opponent's discs (never your own) one step to an empty neighbour, and your disc goes where it stood.
learn-rule-i7 = swapping colours is only Black's answer to White's first disc, in the pie variant.
learn-rule-i8 = the free reply places Black's first disc on an empty cell.
learn-rule-i10 = every opponent disc newly surrounded by your discs must be relocated, each to a different empty cell.
learn-rule-i15 = with the neutral disc, White's first move pushes the neutral disc.
learn-rule-i16 = a move that connects your edges ends the game at once: nothing is relocated.
learn-rule-i18 = a player with no legal move has lost.
learn-rule-x3 = a stack belongs to the player whose disc is on top.
learn-rule-x7 = in the expert setup each move puts a tile of your colour: the first on 0,0, then next to a tile.
learn-rule-x8 = swapping colours is only red's answer to silver's first move, in the pie variant.
learn-rule-x10 = a dance of destruction is compulsory whenever one is possible, and one that drops discs into outer space goes first.
learn-rule-x12 = a dance moves one of your stacks standing on a tile along a straight line.
learn-rule-x13 = a dance must land on an opponent's stack no taller than yours, within as many steps as your stack is high, over empty tiles only.
learn-rule-x16 = the world grows from a stack in outer space that touches two or more tiles.
learn-rule-x17 = a disc is placed from your hand on an empty tile.
learn-rule-x18 = you may pass only when you can neither dance nor build.
learn-rule-x19 = the game is over.

## inpHeXion
learn-inphexion-goal = Placing and the goal
learn-inphexion-first-disc-goal = White moves first and places one disc anywhere. Discs in the middle reach every edge fastest: place your first disc on the centre, c3.
learn-inphexion-first-disc-corner = A disc in the corner a1 touches only two cells and is far from your bottom edge. Try the centre, c3.
learn-inphexion-white-connects-goal = White wins by joining the top edge to the bottom edge with a chain of touching discs. One black disc stands in White's way: win now.
learn-inphexion-black-connects-goal = You play Black: Black joins the left edge to the right edge. One white disc breaks your row: win now.
learn-inphexion-push = Pushing
learn-inphexion-first-push-goal = After the first disc every turn is a push: move one of your opponent's discs one step to an empty neighbour, then place your disc on the cell it left. Push the white disc.
learn-inphexion-to-the-edge-goal = You only ever move your opponent's discs, and your new disc lands where theirs stood. Push the black disc on c1, so that your disc takes its place on your top edge.
learn-inphexion-to-the-edge-own = The disc on c3 is yours: a turn moves one of your opponent's discs, never your own.
learn-inphexion-stuck-goal = A disc with no empty neighbour cannot be moved. Push a black disc that can move.
learn-inphexion-stuck-stuck = The disc on a1 has no empty neighbour, so it cannot be moved.
learn-inphexion-relocate = Relocating surrounded discs
learn-inphexion-corner-goal = A disc whose every neighbour is yours (the board's edge counts as yours) is surrounded, and you move it to any empty cell you like. Surround the black disc in the corner a1.
learn-inphexion-pair-goal = Two opponent discs that touch each other are never surrounded: each has a friend beside it. Find the black disc you can surround, and relocate it.
learn-inphexion-pair-pair = The black discs on a1 and b1 touch each other, so neither is surrounded: nothing would be relocated. Look at the disc on e5.
learn-inphexion-connect = Connecting
learn-inphexion-careful-goal = Pushing an opponent's disc can complete their chain, and then they win. Win with White without handing Black the game.
learn-inphexion-careful-their-chain = Pushing c2 to c3 fills the gap in Black's row a3–e3: Black's chain would be complete and Black would win.
learn-inphexion-pie = The pie rule
learn-inphexion-swap-centre-goal = With the pie rule Black may answer White's first disc by swapping colours: the disc stays and becomes yours. White took the strong centre: swap.
learn-inphexion-keep-corner-goal = A disc in a corner is weak: swapping would give you that weak disc. Keep your colour and push the white disc.
learn-inphexion-keep-corner-weak = After a swap the weak disc in the corner would be yours. Keep your colour: push it.
learn-inphexion-free-reply = Free reply and the neutral disc
learn-inphexion-free-reply-goal = With the free reply Black's first turn may place a disc on any empty cell instead of pushing. Place a black disc.
learn-inphexion-neutral-first-goal = With the neutral disc a grey disc starts in the centre; it belongs to nobody and counts as your opponent's on every turn. White's first move pushes it: push the neutral disc.
learn-inphexion-neutral-first-neutral = With the neutral disc White does not place a first disc: the first move pushes the neutral disc.
learn-inphexion-neutral-surround-goal = The neutral disc counts as your opponent's, so you relocate it when you surround it. Surround the neutral disc on a1.
learn-inphexion-threats = First threats
learn-inphexion-block-goal = Black threatens to push your disc out of c3 and complete the row a3–e3. Make a move after which Black cannot win at once.
learn-inphexion-block-ignores = After that move Black pushes your disc out of c3 and completes the row: break Black's row first.
learn-inphexion-win-first-goal = Both sides are one move from winning, and it is your turn: win first.
learn-inphexion-win-first-win-first = That stops Black's threat, but you could have won at once: push the black disc out of c5.

## EXXIT
learn-exxit-discs = Placing discs
learn-exxit-first-disc-goal = The world is the tiles on the table. When no dance of destruction is possible, you build: place a disc from your hand on an empty tile. Place a silver disc.
learn-exxit-first-disc-no-tile = A disc is placed only on an empty tile of the world, and 2,0 holds no tile.
learn-exxit-dance = The dance of destruction
learn-exxit-first-dance-goal = When one of your stacks can land a disc on an opponent's stack in a straight line, the dance of destruction is compulsory. Dance your stack onto the red one.
learn-exxit-first-dance-forced = A dance of destruction is possible, so you must dance: no disc may be placed.
learn-exxit-space = Stacks falling into outer space
learn-exxit-into-space-goal = A dance drops the stack's discs one per cell from the bottom up; when the line leaves the world, all the discs left fall together into outer space. Such a dance comes before any other: dance so that a disc falls into outer space.
learn-exxit-space-first-goal = Two of your stacks can dance onto 0,-1, but only one of those dances drops a disc into outer space, and such a dance comes first. Dance.
learn-exxit-space-first-first = That dance drops nothing into outer space; the stack on 1,-1 can, so its dance comes first.
learn-exxit-tiles = Laying tiles and chains
learn-exxit-first-tile-goal = A stack in outer space that touches two or more tiles can be replaced by a tile of your colour (expanding the world); its discs go back to their owners. Lay a tile.
learn-exxit-chain-goal = A new tile can make another stack in outer space touch two tiles: it becomes a tile too, in a chain. Lay two tiles in one move.
learn-exxit-chain-one-tile = That lays one tile only: the stack on 1,0 would bring a second one by a chain.
learn-exxit-islands = Islands and scoring
learn-exxit-join-goal = Your largest island (touching tiles of your colour) scores 2 points a tile, every other island 1 a tile. Make a move after which your score is higher than silver's.
learn-exxit-join-no-join = A disc scores nothing: a tile joined to your island is worth more.
learn-exxit-end = The end
learn-exxit-last-tiles-goal = The game ends when the last tile of the supply is laid; the higher score wins. Lay the last tiles and win.
learn-exxit-two-passes-goal = A player who can neither dance nor build passes, and two passes in a row end the game. Silver has just passed and you are ahead: pass and win.
learn-exxit-expert = The expert opening
learn-exxit-first-setup-tile-goal = In the expert setup the world starts empty: each player puts three tiles of their colour in turn, the first on 0,0. Lay the first tile.
learn-exxit-first-setup-tile-centre = The first tile of the expert setup goes on 0,0.
learn-exxit-tactics = First tactics
learn-exxit-bait-goal = Silver must dance whenever a dance is possible. Place a disc where silver's dance will throw discs into outer space, then lay the last tiles yourself and win. You have two moves.

## /learn in Discord
learn-title = 📘 **Learn { $game }** · stage { $stage }/{ $stages }: { $name } · level { $level }/{ $levels }
learn-you-play = You play { $colour }.
learn-alt = Learn to play: { $game }, { $colour } to move
learn-wrong = ❌ { $why } Try again.
learn-reply = ✅ You: { $mine }. I reply: { $reply }.
learn-done = 🎉 **Level done** { $stars } — { $words }
learn-stage-done = 🏁 Stage “{ $name }” complete. Try it for real: a game against me with `/{ cmd-play.name }` ({ $game }, level *{ choice-level-0 }*), a puzzle with `/{ cmd-puzzle.name } { cmd-puzzle-solve.name }`, or a member with `/{ cmd-challenge.name }`.
learn-course-done = 🎓 You finished every level of { $game }'s course.
learn-button-next = Next level
learn-resumed = 📘 Your level in progress, where you left it:
learn-gone = That level is no longer in the course; here is your next one.
learn-stale = These buttons are out of date: `/{ cmd-learn.name }` shows your level as it is now.
learn-not-yours = This level is another member's: `/{ cmd-learn.name }` opens yours.
learn-all-done = You finished every level of the course. Well done!
learn-all-done-of = You finished every level of { $game }'s course.
