# Words drawn in the pictures (boards, replays, the analysis chart).
render-colour-white = White
render-colour-black = Black
render-colour-silver = Silver
render-colour-red = Red
# A player with their colour: `Alice (White)`.
render-player = { $name } ({ $colour })
# Badges on the players' cards.
render-badge-to-move = TO MOVE
render-badge-winner = WINNER
render-badge-draw = DRAW
# The status line.
render-to-move = { $name } to move
render-wins = { $name } wins { $how }
render-draw = Draw { $how }
render-by-connection = by connection
render-no-legal-move = (no legal move left)
render-relocation-impossible = (relocation impossible)
render-by-resignation = by resignation
render-on-time = on time
render-called-off = called off, no result
render-no-result = Called off: no result
# $score is ` 20–18` or nothing.
render-on-score = on score{ $score }
render-on-score-passes = on score{ $score } (both passed)
render-on-score-repetition = on score{ $score } (repetition)
# The last move, after the status.
render-move = Move { $ply }: { $mv }
# The line under a player's name: colour and figures.
render-stats = { $colour } · { $stats }
render-in-hand = { $count } in hand
render-hand-score = hand { $hand } · score { $score }
# EXXIT: the discs left to enter play, between the cards.
render-supply = SUPPLY
# The analysis chart.
render-chart-title = Winning chances
render-chart-subtitle = computer analysis, line smoothed; dots: values found
render-chart-axis = move

render-turning-before = Before move { $number }
render-turning-played = Move { $number } played: { $mv }
render-turning-better = Better move { $number }: { $mv }

render-standings-swiss = Swiss · ties broken by Buchholz cut-1, then Sonneborn–Berger
render-standings-round-robin = Round robin · ties broken by direct encounter, then Sonneborn–Berger, then wins
render-standings-after = After round { $round } · { $rules }
render-standings-rank = Rank
render-standings-player = Player
render-standings-points = Points
render-standings-games = Games
render-standings-buchholz = Buchholz −1
render-standings-sonneborn = S–B
render-standings-direct = Direct
render-standings-wins = Wins
