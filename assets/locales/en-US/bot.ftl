# hexcord's texts in English: answers, announcements, buttons and menus of the bot.
# Each message id is used by the code (`text!("id", …)`); every language has the same ids and
# the same variables.

## Failures

apology = Sorry, something went wrong on my side. It has been logged; please try again in a moment.
game-changed = Game #{ $game } changed while you were acting (the position is not the one you saw). Look at the new board and try again.
option-unreadable = I could not read { $input }: { $error }. Type `/{ $command }` and pick from the suggestions.
an-option = an option

## The games' words

colour-white = white
colour-black = black
colour-silver = silver
colour-red = red
reason-connection = connection
reason-no-legal-move = no legal move
reason-relocation-impossible = relocation impossible
reason-resignation = resignation
reason-timeout = timeout
reason-score = score { $a }-{ $b }
reason-score-passes = score { $a }-{ $b } (passes)
reason-score-repetition = score { $a }-{ $b } (repetition)
reason-no-score = score
outcome-win = { $winner } wins: { $why }
outcome-draw = draw: { $why }
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
options-do-not-fit = Those options do not fit { $game }: { $error }. See `/rules { $name }`.
challenge-yourself = You cannot challenge yourself: pick another member as `opponent`.
challenge-a-bot = Bots cannot accept challenges: pick a human member as `opponent`.
challenge-not-open = This challenge is no longer open (it was { $status }).
challenge-for-another = This challenge is for { $who }. To play yourself, use `/challenge`.
challenge-withdraw-own = Only the member who made this challenge can withdraw it.
challenge-expired-answer = This challenge has expired: make a new one with `/challenge`.
vacation-already = You are already on vacation until <t:{ $until }:f>. Take another one when it is over.
vacation-too-long = You can take 1 to { $left } days of vacation now ({ $cap } days in any 365; you took { $used }); you asked for { $days }.
move-cannot-be-played = `{ $input }` cannot be played in game #{ $game }: { $error }. Type `/move` and pick one of the suggestions.
leaderboard-pages =
    The table has { $pages ->
            [one] { $pages } page
           *[other] { $pages } pages
        }: pick a `page` from 1 to { $pages }.
