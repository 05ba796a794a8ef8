# hexcord's texts in English: answers, announcements, buttons and menus of the bot.
# Each message id is used by the code (`text!("id", …)`); every language has the same ids and
# the same variables.

## Failures

apology = Sorry, something went wrong on my side. It has been logged; please try again in a moment.
storage-unavailable = The game store cannot be reached just now, so nothing was played or changed. Please try again in a minute.
game-changed = Game #{ $game } changed while you were acting (the position is not the one you saw). Look at the new board and try again.
option-unreadable = I could not read { $option } of `/{ $command }`, so nothing was done. Type `/{ $command }` again and fill in { $option } from the suggestions.
option-unreadable-unnamed = I could not read an option of `/{ $command }`, so nothing was done. Type `/{ $command }` again and fill in its options from the suggestions.
option-not-a-choice = { $option } of `/{ $command }` was none of its choices, so nothing was done. Type `/{ $command }` again and pick { $option } from the list.
option-out-of-range = { $option } of `/{ $command }` must be { $range }, so nothing was done. Type `/{ $command }` again with a value in that range.
option-bad-length = { $option } of `/{ $command }` must have { $range } characters, so nothing was done. Type `/{ $command }` again with a shorter text.
option-range-between = from { $min } to { $max }
option-range-at-least = at least { $min }
option-range-at-most = at most { $max }

## The games' words

former-member = a former member
colour-white = white
colour-black = black
colour-silver = silver
colour-red = red
outcome-win = { $winner } wins { $how }
outcome-draw = draw { $how }
result-aborted-by-agreement = aborted by agreement
result-aborted-by = aborted by { $by }
left-none = no time left
left-under-a-minute = less than a minute
left-minutes = { $m } min
left-hours = { $h } h { $m } min
left-days = { $d } d
left-days-hours = { $d } d { $h } h

## Refusals

status-active = active
status-finished = finished
status-aborted = aborted
challenge-status-open = open
challenge-status-accepted = accepted
challenge-status-declined = declined
challenge-status-withdrawn = withdrawn
challenge-status-expired = expired
game-over-start-new = Game #{ $game } is over ({ $result }). Start a new one with `/challenge`.
game-not-yours = Game #{ $game } is not yours: it is between { $a } and { $b }. Use `/games` to see your own.
not-your-turn = It is not your turn in game #{ $game }: { $who } ({ $colour }) is to move. You will be mentioned when it is your turn.
time-ran-out = The time for this move in game #{ $game } ran out <t:{ $at }:R>: the game is lost on time.
no-such-active-game-here = You have no active game #{ $game } in this channel. `/games` lists yours.
no-active-game-here = You have no active game in this channel. Start one with `/challenge`, or see `/games`.
several-games-here = You have several games in this channel ({ $games }): add the `game` option to say which.
not-a-game-number = `{ $input }` is not a game number: pick one of the suggestions, or see `/games`.
abort-moderators-only = Only moderators (Manage Server) can abort a game. A player can `/resign`.
game-not-in-this-server = Game #{ $game } is not in this server.
game-already-over = Game #{ $game } is already over.
option-not-of-game = `{ $option }` is not an option of { $game }: leave it out, or pick the other game.
options-do-not-fit = Those options do not fit { $game }: { $error }. See `/rules game:{ $name }`.
challenge-yourself = You cannot challenge yourself: pick another member as `opponent`.
challenge-a-bot = Bots cannot accept challenges: pick a human member as `opponent`.
challenge-not-open = This challenge is no longer open (it was { $status }).
challenge-for-another = This challenge is for { $who }. To play yourself, use `/challenge`.
challenge-withdraw-own = Only the member who made this challenge can withdraw it.
challenge-expired-answer = This challenge has expired: make a new one with `/challenge`.
vacation-already = You are already on vacation until <t:{ $until }:f>. Take another one when it is over.
vacation-too-long = You can take { $left ->
    [one] 1 day
   *[other] 1 to { $left } days
} of vacation now ({ $cap } days in any 365; you took { $used }); you asked for { $days }.
move-cannot-be-played = `{ $input }` cannot be played in game #{ $game }: { $error }. Type `/move` and pick one of the suggestions.
leaderboard-pages =
    The table has { $pages ->
            [one] { $pages } page
           *[other] { $pages } pages
        }: pick a `page` from 1 to { $pages }.

## Boards

alt-game = { $game } game #{ $id }
alt-at-start = at the start
alt-after-move = after move { $n }
alt-to-move = { $colour } to move
alt-score = , score { $first } { $a }–{ $b } { $second }
alt-text = { $game } game #{ $id } { $when }: { $state }{ $score }
alt-rules = The starting board of { $game }.
alt-chart = Winning chances in { $game } game #{ $id }, move by move, from the computer analysis.
alt-turning-before = Turning point of { $game } game #{ $id }: the board before move { $number }.
alt-turning-played = Turning point of { $game } game #{ $id }: the board after move { $number } as played.
alt-turning-better = Turning point of { $game } game #{ $id }: the board after the move the analysis prefers as move { $number }.
alt-replay = { $game } game #{ $id } replayed from the start to the end, { $moves ->
    [one] 1 move
   *[other] { $moves } moves
}.
caption-head = **{ $game }** game #{ $id } · { $a } vs { $b }
caption-played = Move { $n } · { $who }: { $words }
caption-to-move = { $who } ({ $colour }) to move.
caption-to-move-until = { $who } ({ $colour }) to move. Time runs out <t:{ $at }:R>.
caption-over = Game over: { $result }.
caption-over-won = Game over: { $result }. Congratulations!
caption-then-moved = ⏭ Next: move { $n } · { $who }: { $words }
caption-then-taken-back = ⏭ Then move { $n } was taken back.
caption-then-over = ⏭ Then the game ended: { $result }.
caption-replay = Watch it again with `/replay game:{ $id }`; its record: `/record game:{ $id }`.

## Game actions

no-such-game = There is no game #{ $game }. `/games` lists the active ones.
following = Following: { $names }
your-move-direct = { $who }: your move in game #{ $game } (<#{ $place }>). Press **Move** below.
chat-opponent-not-told = { $who } could not be told by direct message (Discord lets hexcord write only to members who share a server with it or installed it): nothing is lost, they see this board here when they next look.
players-beat = { $winner } beat { $loser } { $how }
players-drew = { $a } and { $b } drew { $how }
player-colour = { $who } ({ $colour })
caption-notation = -# `{ $mv }`
its-thread = its thread
result-line = 🏁 **{ $game }** game #{ $id }: { $result }. The final board is in { $thread }; `/replay game:{ $id }` shows the game again.
resigned = { $who } resigned.
game-over-replay = Game #{ $game } is over ({ $result }): `/replay` shows it.
call-off-too-late = Game #{ $game } is under way (both players have made two moves): it can no longer be called off. You can `/resign`.
call-off-proposed = { $opponent }, { $who } proposes to call off game #{ $game }: it would end without a result and leave the ratings alone.
only-they-answer-proposal = Only { $who } can answer this proposal.
call-off-moved-on = Game #{ $game } has moved on since this proposal: ask again with `/calloff` if you both still want it.
call-off-declined = { $who } wants to play on: game #{ $game } continues.
called-off = Game #{ $game } ({ $a } vs { $b }) was called off by agreement; it has no result.
call-off-done = Game #{ $game } is called off.
aborted-by-moderator = Game #{ $game } ({ $a } vs { $b }) was aborted by a moderator; it has no result.
takeback-your-turn = You can take back only your own last move, before your opponent has moved: in game #{ $game } it is your turn.
takeback-against-bot = I answer at once, so there is no move of yours to take back in a game against me.
takeback-asked = { $opponent }, { $who } asks to take back move { $ply } of game #{ $game }: { $words }. Accept and it is their turn again, on the position before it, with the time they had left; decline and the move stands.
takeback-moved-on = Game #{ $game } has moved on since this takeback was asked for: move { $ply } stands.
only-they-answer-request = Only { $who } can answer this request.
takeback-declined = { $who } declined to take back move { $ply } of game #{ $game }: it stands.
took-back = With { $who }'s agreement, { $asker } took back move { $ply }: { $words }.
takeback-done = Move { $ply } of game #{ $game } was taken back.
ran-out-of-time = { $who } ran out of time.
reminder = ⏰ Reminder: { $who }, it is your move in **{ $game }** game #{ $id } against { $opponent } in <#{ $place }>. { $left } left. Press **Move** below to play; `/settings` turns reminders off.
reminder-until = ⏰ Reminder: { $who }, it is your move in **{ $game }** game #{ $id } against { $opponent } in <#{ $place }>. { $left } left (until <t:{ $until }:f>). Press **Move** below to play; `/settings` turns reminders off.
challenge-expired = The challenge of { $challenger } to { $opponent } ({ $options }) expired without an answer.
challenge-already-open = There is already an open { $game } challenge between you and { $opponent } (challenge #{ $id }): answer or withdraw it first.
too-many-challenges = You have { $open } open challenges, the most one member may have: wait for answers, or withdraw some (each expires when its time is up).
rematch-players-only = Only the players of game #{ $game } can ask for its rematch. Start your own game with `/challenge`.
game-still-played = Game #{ $game } is still being played.
rematch-against-bot = For another game against me, use `/play` (choose `first` to pick who starts).
rated = rated
unrated = unrated
rematch-offered =
    { $opponent }, { $who } offers a rematch of game #{ $game } ({ $options }, { $rated }, the same time per move) with the colours swapped: { $first } plays { $colour } and moves first.
    Accept or decline below (open for { $hours } hours).
challenge-gone = Challenge #{ $id } does not exist any more.
challenge-answered-meanwhile = Challenge #{ $id } was answered in the meantime.
challenge-declined = { $opponent } declined the challenge of { $challenger } ({ $options }).
challenge-withdrawn = { $challenger } withdrew the challenge to { $opponent } ({ $options }).
challenge-accepted = { $opponent } accepted the challenge of { $challenger }: game #{ $game } ({ $options }) starts below.
too-many-bot-games = You already have { $max ->
    [one] a game
   *[other] { $max } games
} against me: finish or `/resign` one first (`/games` lists them).
plays-me = { $who } plays me at level **{ $level }** ({ $options }, unrated).
plays-me-coached = { $who } plays me at level **{ $level }** ({ $options }, unrated), with the coach: press **Move**, then **💡 Hint** for a good move and why.

## The coach of a coached game (/play with coach)
coach-button = Hint
coach-hint =
    💡 Suggested move: **{ $words }** (`{ $mv }`)
    { $why }
    { $threat }
coach-why-only = It is your only legal move.
coach-why-wins = It wins the game at once.
coach-why-stops = It stops { $them } from connecting on their next move.
coach-why-relocates = It surrounds { $n ->
    [one] a disc
   *[other] { $n } discs
} of your opponent's, which you relocate where they help you least.
coach-why-closer = After it your shortest chain between your edges lacks { $mine ->
    [one] one cell
   *[other] { $mine } cells
}; { $them }'s lacks { $theirs }.
coach-why-dance = A dance of destruction is compulsory; of the dances, this one leaves the score { $mine }–{ $theirs } (yours first).
coach-why-tiles = It lays { $n ->
    [one] a tile
   *[other] { $n } tiles
}: the score goes from { $was } to { $now } (yours first).
coach-why-builds = It prepares your next tiles; the score stays { $score } (yours first).
coach-no-threat = No threat from { $them } to answer now.
coach-threat-connects = ⚠️ { $them } threatens to connect by pushing your disc on { $cells } and taking its place.
coach-threat-reply = ⚠️ Watch { $them }'s best answer, `{ $with }`: it would make the score { $score } (yours first).
coach-not-coached = Game #{ $game } has no coach: start one with `/{ cmd-play.name }` and its coach option.
coach-not-yours = Only the player the bot coaches in game #{ $game } can ask for a hint.

## The Move button's picker

picker-row = Row { $n }
picker-row-r = Row r = { $r }
picker-group = { $name } ({ $n } cells)
pick-swap = Swap colours
pick-pass = Pass
pick-place-on = Place a disc on { $cell }
pick-push = Push the disc on { $cell }
pick-push-to = Push it to { $cell }
pick-relocate = Relocate { $from } to { $to }
pick-dance = Dance the stack on { $cell }
pick-onto = Onto { $cell }
pick-onto-space = Onto { $cell } (falls into space)
pick-lay = Lay a tile
pick-lay-at = Lay a tile at { $cell }
pick-lay-at-chain = Lay a tile at { $cell } (+{ $extra } by chain)
pick-place = Place a disc
ask-swap-or-place = Take over the first move (pie rule), or place a disc
ask-place-where = Where do you place your disc?
ask-push-which = Which disc do you push? (Your disc then goes where it stood.)
ask-push-where = Where does the pushed disc go?
ask-relocate-where = Where does the relocated disc go?
ask-only-pass = Nothing else is possible
ask-swap-or-build = Take over the first moves (pie rule), or build
ask-dance-which = A dance of destruction is forced: which stack dances?
ask-onto-which = Which opponent stack does it hit?
ask-lay-or-place = Lay a tile or place a disc?
ask-lay-where = Which outer-space stack becomes a tile?
ask-place-tile = On which empty tile?
words-push = Push the disc on { $from } to { $to }
words-relocate = relocate { $from } to { $to }
words-then = { $first }{ words-separator }{ $next }
words-dance = Dance the stack on { $from } onto { $onto }
words-dance-space = Dance the stack on { $from } onto { $onto } (falls into space)
words-separator = { ", " }

## Buttons and the picker's answers

button-accept = Accept
button-privacy-delete = Delete my data
button-decline = Decline
button-withdraw = Withdraw
button-rematch = Rematch
button-move = Move
button-follow = Follow
button-fresh-picker = Fresh picker
button-cancel = Cancel
button-back = Back
button-play = Play
stale-button = This button is no longer valid: its game or challenge has moved on. Use `/games` to see your games, or `/challenge` to start one.
follow-again-button = Press **Follow**
following-now = You follow game #{ $game }: you will be mentioned with its result. { $again } again to stop.
not-following = You no longer follow game #{ $game }.
follow-not-in-chats = Game #{ $game } is played in a direct or group chat, where everyone sees its boards: following is for games in servers.
and-its-thread = { $first } Its thread: <#{ $thread }>.
and-not-added-to-thread = { $first } I could not add you to its thread <#{ $thread }>: open it to join.
and-not-removed-from-thread = { $first } I could not take you out of its thread <#{ $thread }>: leave it from its menu.
picker-cancelled = No move played in game #{ $game }. Press **Move** under its board when you are ready.
you-resigned = You resigned game #{ $game }.
keep-playing = Good luck! Press **Move** when you are ready.
rematch-offered-there = Rematch offered in <#{ $channel }>: { $opponent } answers there.
rematch-not-posted = I could not post the rematch offer in <#{ $channel }>: { $why }. The offer is withdrawn; press Rematch again once that is fixed.
game-over-plain = Game #{ $game } is over ({ $result }).
game-between = Game #{ $game } is between { $a } and { $b }; it is { $who }'s turn. To play yourself, `/challenge` a member or `/play` against me.
their-turn-not-yours = It is { $who }'s turn in game #{ $game }, not yours: you will be told when it is.
you-played = { $mv ->
        [pass] You passed
       *[other] You played { $words } (`{ $mv }`)
    } in game #{ $game }, move { $n }. The board follows in <#{ $place }>.
plans-added = Planned in game #{ $game }, for you alone: `{ $line }` (their move first, then yours). { $count ->
    [one] 1 line
   *[other] { $count } lines
} planned. When they play the first move of a line, your reply is played at once; any other move clears your plans.
plans-shown = Your conditional moves in game #{ $game } (only you see them; their move first, then yours):
    { $lines }
plans-none = You have no conditional moves in game #{ $game }.
plans-removed = Conditional moves removed in game #{ $game }: { $count ->
    [one] 1 line remains
   *[other] { $count } lines remain
}.
plans-no-branch = No planned line in game #{ $game } begins with `{ $line }`; nothing changed.
plans-your-move = It is your move in game #{ $game }: play it with the `move` alone. Conditional moves are entered while your opponent is to move.
plans-not-here = Game #{ $game } has no conditional moves: they are for games between two members in Discord.
plans-line-length = A conditional line in game #{ $game } is your opponent's move and your reply, or a longer line of pairs, at most { $max } moves in all.
plans-line-ends = Move { $n } of the line (`{ $input }`) in game #{ $game } cannot be planned: the game would be over, or it would not be that player's turn.
plans-illegal = Move { $n } of the line (`{ $input }`) cannot be played in the position it would arise in game #{ $game }: { $error }. Nothing was planned.
plans-too-many = Not planned: at most { $max } lines are kept in game #{ $game }. Remove a branch first.
plans-played = ⏩ { $who }'s conditional move, entered ahead as the reply to { $words } (`{ $mv }`), is played at once.
plans-missed = Your conditional moves in game #{ $game } are cleared: your opponent played { $words } (`{ $mv }`), off every line you planned. It is your move.
picker-stale = The position of game #{ $game } has changed since this picker was opened (it is now after move { $n }). Nothing was played.
picker-title = **{ $game }** game #{ $id } · your move
picker-confirm = Play **{ $words }** (`{ $mv }`)? The picture shows the board after it.


## Delivery

refused-missing-permissions = Discord refused with "Missing Permissions": I need View Channel, Send Messages and Attach Files in <#{ $channel }>
refused-missing-access = Discord refused with "Missing Access": I cannot see <#{ $channel }> (View Channel is missing)
refused-unknown-channel = <#{ $channel }> no longer exists ("Unknown Channel")
refused-other = Discord refused the message in <#{ $channel }> (HTTP { $status }, code { $code }: { $message })
could-not-post-here = ⚠️ I could not post this in <#{ $channel }>: { $why }. A moderator can fix that.
direct-refused-fault = Discord refused my direct message to { $who } (code { $code }: { $message }): they may have closed direct messages from server members
direct-refused-opponent = ⚠️ I could not send **{ $who }** the board of game #{ $game } by direct message (Discord refused: code { $code }, "{ $message }"): they may have closed direct messages from server members. The game waits for their move, on their clock as usual; they can still play it from their inbox on the web board, whose link `/{ cmd-games.name }` gives.
moderators-no-threads = 🔧 Moderators: I cannot open a thread for each game in <#{ $channel }> (Discord refused: "{ $message }"). I need the **Create Public Threads** and **Send Messages in Threads** permissions there. Until then, games are played in this channel; `/server threads:off` keeps them here without this notice.
moderators-no-thread-posts = 🔧 Moderators: I cannot post in the threads of games in <#{ $channel }> (Discord refused: "{ $message }"). I need the **Send Messages in Threads** permission there. Until then, games are played in this channel.
moderators-thread-left = 🔧 Moderators: I cannot post in <#{ $thread }>, the thread of game #{ $game } (Discord refused: "{ $message }"; a locked thread does this). The game goes on in this channel.
moderators-no-archive = 🔧 Moderators: I cannot archive the threads of finished games in <#{ $channel }> (Discord refused: "{ $message }"). I need the **Manage Threads** permission there; without it, each thread closes by itself after a week without messages.
# A variant in words: `inpHeXion 7×7, pie rule`.
variant = { $game } { $size }
variant-inphexion = { $size }×{ $size }
variant-exxit = { $tiles } tiles
variant-and = { $variant }, { $flag }
variant-pie = pie rule
variant-free-reply = free first reply
variant-neutral = neutral centre disc
variant-expert = expert set-up

## The daily puzzle (crate::play::daily)

daily-puzzle = 🧩 **Daily puzzle**: { $game }, { $colour } to move, difficulty { $difficulty }/5. One move keeps the win (or saves the game): find it with **Solve**, privately. The solution comes with tomorrow's puzzle.
daily-puzzle-solution = 🧩 The previous daily puzzle's solution: { $line }. { $solved }
daily-puzzle-solved-by = { $count ->
    [one] Solved by 1 member: { $names }.
   *[other] Solved by { $count } members: { $names }.
}
daily-puzzle-more = {" "}and { $count } more
daily-puzzle-nobody = Nobody solved it.
daily-puzzle-none-left = 🧩 Every puzzle has been posted here: the daily puzzle waits for new ones (they come from games analysed with `/analysis`).
button-daily-solve = Solve
daily-puzzle-unknown = This button is not one of this server's daily puzzles.
daily-puzzle-over = This daily puzzle is over: its solution has been posted. Try today's, or `/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` for one of your own.
puzzle-alt = Puzzle: { $game }, { $colour } to move
daily-puzzle-tried = You have tried this puzzle already: only the first attempt counts. `/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` gives you another.
daily-puzzle-solving = 🧩 The daily puzzle, for you alone:
