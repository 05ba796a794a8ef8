# Tournaments: their cards, rounds, standings, and the answers to their commands and buttons.

tournament-card = 🏆 **{ $name }** (tournament #{ $id }): { $format } of { $options }, { $rated }, { $time }. { $players } { $start }
tournament-count = Players: { $count }.
tournament-count-of = Players: { $count } of { $max }.
tournament-starts-at = Sign-up closes <t:{ $at }:R>.
tournament-starts-by-hand = Its organiser starts it.
tournament-running = Round { $round } of { $rounds } under way.
tournament-finished = Finished.
tournament-cancelled-state = Called off.
tournament-format-swiss = Swiss, { $rounds } rounds
tournament-format-round-robin = round robin
tournament-format-double-round-robin = double round robin

tournament-begins = 🏁 **{ $name }** begins with { $count } players ({ $format }).
tournament-called-off = **{ $name }** is called off: { $count } signed up, { $needed } were needed.
tournament-round = **{ $name }**, round { $round } of { $rounds }:
    { $lines }
tournament-pairing-line = Game #{ $game }: { $white } – { $black }
tournament-bye-line = Bye: { $who } ({ $points } pt)
tournament-game-intro = **{ $name }**, round { $round }.
tournament-standings = **{ $name }**, standings after round { $round }:
    { $lines }
tournament-standing-swiss = { $rank }. { $name }: { $points } pt, { $games } games · Buchholz cut-1 { $buchholz } · Sonneborn–Berger { $sb }
tournament-standing-round-robin = { $rank }. { $name }: { $points } pt, { $games } games · direct encounter { $direct } · Sonneborn–Berger { $sb } · wins { $wins }
tournament-withdrawn-name = { $name } (withdrawn)
tournament-final = 🏆 **{ $name }** is over. The winner: { $winner }!
    { $table }
tournament-joined-late = { $who } joins **{ $name }** late, with a ½-point bye for each of the { $rounds } rounds paired so far.
tournament-withdrew = { $who } withdrew from **{ $name }**.
tournament-withdrawn-on-time = { $who } lost { $losses } games of **{ $name }** on time and is withdrawn.
tournament-forfeited = { $who } withdrew from the tournament: { $winner } wins this game by forfeit.
tournament-withdrawal-by = withdrawal
tournament-removed = { $who } is removed from **{ $name }** by its organisers.
tournament-left-server = { $who } left the server and is withdrawn from **{ $name }**: they are paired no more.
tournament-cancelled = **{ $name }** is called off by { $who }. { $games ->
    [0] No game was in progress.
    [one] The game in progress ends without a result.
   *[other] The { $games } games in progress end without a result.
}
tournament-cancellation-by = tournament called off
tournament-game-called-off = **{ $name }** is called off: this game ends without a result.
tournament-paused = ⏸️ { $who } paused **{ $name }**: the games under way go on, but round { $round } is not paired until it is resumed.
tournament-resumed = ▶️ { $who } resumed **{ $name }**: round { $round } is paired as soon as the games before it are decided.
tournament-corrected = ✏️ { $who } corrected the result of game #{ $game } (round { $round }) of **{ $name }**: { $now } (was: { $was }). The standings follow.
tournament-pairings-kept = The pairings already made, up to round { $round }, stay as they are; later rounds are paired on the corrected result.
tournament-result-win = { $winner } beat { $loser }
tournament-result-forfeit = { $winner } wins by forfeit against { $loser }
tournament-result-draw = { $a } and { $b } drew
tournament-result-void = { $a } – { $b } without a result

tournament-you-joined = You joined **{ $name }**. Your games will start here when it begins.
tournament-you-joined-late = You joined **{ $name }** late: a ½-point bye for each of the { $rounds } rounds paired so far; you are paired from the next round.
tournament-you-left = You left **{ $name }**.
tournament-you-withdrew = You withdrew from **{ $name }**: you will not be paired again.
tournament-you-removed = { $who } is withdrawn from **{ $name }**: they will not be paired again.
tournament-you-cancelled = **{ $name }** is called off; its players are told in its channel.
tournament-you-paused = The next round of **{ $name }** is paused until an organiser resumes it (`/tournament`, resume).
tournament-you-resumed = **{ $name }** goes on: its next round is paired as soon as the games before it are decided.
tournament-you-corrected = Game #{ $game } now reads: { $now }. The standings follow.
tournament-exported = **{ $name }** as a FIDE TRF file, after { $rounds ->
    [0] no round yet
    [one] round 1
   *[other] round { $rounds }
} (rounds still being played are left out). `hexcord pairings` reads it.

tournament-not-found = There is no tournament #{ $id }.
tournament-other-server = Tournament #{ $id } belongs to another server: join it there.
tournament-over = **{ $name }** is over.
tournament-already-joined = You are already in **{ $name }**.
tournament-full = **{ $name }** is full ({ $max } players).
tournament-started = **{ $name }** has started and takes no more players.
tournament-leave-started = **{ $name }** has started: withdraw from it instead of leaving.
tournament-not-joined = You are not in **{ $name }**.
tournament-already-withdrawn = You have already withdrawn from **{ $name }**.
tournament-withdraw-not-started = **{ $name }** has not started yet: leave it instead.
tournament-already-started = **{ $name }** has already started.
tournament-start-not-allowed = Only the organiser of **{ $name }**, or a member who manages the server or its events, may start it.
tournament-organisers-only = Only the organiser of **{ $name }**, or a member who manages the server or its events, may do this.
tournament-not-running = **{ $name }** is not under way: only a running tournament's next round can be paused or resumed.
tournament-already-paused = **{ $name }** is already paused.
tournament-not-paused = **{ $name }** is not paused.
tournament-not-a-player = { $who } does not play in **{ $name }**.
tournament-player-withdrawn = { $who } has already withdrawn from **{ $name }**.
tournament-not-its-game = Game #{ $game } is not a tournament game.
tournament-game-undecided = Game #{ $game } is still being played: only a decided result can be corrected.
tournament-result-unchanged = Game #{ $game } already has that result.
tournament-export-not-started = **{ $name }** has not started yet: there is nothing to export.
tournament-too-few = **{ $name }** has { $count } players; it needs at least { $needed } to start.
tournament-create-not-allowed = In this server only members who manage the server or its events may create tournaments.
tournament-bad-name = A tournament's name is one line of 1 to { $max } characters.
tournament-bad-limit = A limit of { $max } players cannot work: choose between 2 and { $most }.
tournament-rounds-needed = A Swiss tournament needs its number of rounds.
tournament-bad-rounds = { $rounds } rounds cannot work: choose between 1 and { $most }.
tournament-rounds-swiss-only = Only a Swiss tournament has a number of rounds to choose: a round robin has as many as its players need.
tournament-too-many-rounds = { $rounds } Swiss rounds need at least { $rounds } + 1 players, but at most { $players } may join: choose fewer rounds or a higher limit.
tournament-start-past = The end of sign-up must be in the future.

button-join = Join
button-leave = Leave
tournament-none-here = There is no tournament taking players or under way in this server. Give its number, or create one.
answer-tournament-created = Tournament #{ $id } is open for sign-up.
tournament-line-break = { $before }
    { $after }
tournament-standings-alt = The standings of { $name } after round { $round }: a table of { $players } players with their points, games and tiebreaks.
tournament-result-line = 🏆 **{ $name }** is over. The winner: { $winner }! The final standings are in { $thread }.
