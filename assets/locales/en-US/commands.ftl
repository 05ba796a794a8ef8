# The slash commands: their names and descriptions as Discord shows them, and their answers.
#
# `cmd-<command>`: the command's description, `.name` its name.
# `opt-<command>-<option>`: an option's description, `.name` its name.
# `choice-<option>-<n>`: the name of the n-th choice (from 0) of an option.
# English names are the ones the code declares (a test checks they agree).

## Commands

cmd-challenge = Challenge a member, or anyone here.
    .name = challenge
opt-challenge-opponent = Who to play; leave it out to let any member here accept
    .name = opponent
opt-challenge-game = Which game
    .name = game
opt-challenge-size = inpHeXion: board size (7 is standard)
    .name = size
opt-challenge-pie = Pie rule: the second player may swap after the first move
    .name = pie
opt-challenge-free_reply = inpHeXion: Black's first disc may go anywhere
    .name = free_reply
opt-challenge-neutral = inpHeXion: a neutral disc in the centre (odd sizes)
    .name = neutral
opt-challenge-tiles = EXXIT: number of tiles
    .name = tiles
opt-challenge-expert = EXXIT: players lay the first six tiles
    .name = expert
opt-challenge-rated = Counts for the server's ratings (default: yes)
    .name = rated
opt-challenge-days_per_move = Time for each move (default: 3 days); running out loses the game
    .name = days_per_move

cmd-play = Play against me, the bot.
    .name = play
opt-play-game = Which game
    .name = game
opt-play-level = How strong I play (default: the level nearest your rating)
    .name = level
opt-play-first = You move first (default: yes)
    .name = first
opt-play-size = inpHeXion: board size (7 is standard)
    .name = size
opt-play-pie = Pie rule: the second player may swap after the first move
    .name = pie
opt-play-free_reply = inpHeXion: Black's first disc may go anywhere
    .name = free_reply
opt-play-neutral = inpHeXion: a neutral disc in the centre (odd sizes)
    .name = neutral
opt-play-tiles = EXXIT: number of tiles
    .name = tiles
opt-play-expert = EXXIT: players lay the first six tiles
    .name = expert
opt-play-coach = A coach: a Hint button gives you a good move and why
    .name = coach

cmd-move = Play a move in your game in this channel.
    .name = move
opt-move-move = Your move: pick one of the suggestions
    .name = move
opt-move-game = Which game, when you have several here
    .name = game
opt-move-if = Plan ahead: your opponent's expected move (a longer line: theirs; yours; theirs)
    .name = if

cmd-board = A game's board, now or earlier.
    .name = board
opt-board-game = Which game (a number; default: yours here)
    .name = game
opt-board-ply = Show the position after this many moves
    .name = ply

cmd-resign = Resign a game (asks for confirmation).
    .name = resign
opt-resign-game = Which game, when you have several here
    .name = game

cmd-takeback = Take back your move before your opponent moves.
    .name = takeback
opt-takeback-game = Which game, when you have several here
    .name = game

cmd-calloff = Call off a game barely started.
    .name = calloff
opt-calloff-game = Which game, when you have several here
    .name = game

cmd-follow = Follow a game's result; again to stop.
    .name = follow
opt-follow-game = The game number, as its board shows it
    .name = game

cmd-note = Your private notes on a game.
    .name = note
opt-note-game = The game number
    .name = game
opt-note-text = A line to add to your notes (leave it out to see them)
    .name = text

cmd-games = Active games here; your inbox link.
    .name = games
opt-games-user = Whose games (default: yours)
    .name = user

cmd-turn = Your games here to move in, with time left.
    .name = turn

cmd-leaderboard = The server's rating table for a game.
    .name = leaderboard
opt-leaderboard-game = Which game
    .name = game
opt-leaderboard-page = Page (10 players a page)
    .name = page

cmd-profile = A player's ratings and recent games.
    .name = profile
opt-profile-user = Whose profile (default: yours)
    .name = user

cmd-record = Attach a game's record.
    .name = record
opt-record-game = The game number
    .name = game

cmd-replay = Attach a game as an animated picture.
    .name = replay
opt-replay-game = The game number
    .name = game

cmd-analysis = A finished game's turning points.
    .name = analysis
opt-analysis-game = The game number (a finished game)
    .name = game

cmd-puzzle = Puzzles: solve one; the leaderboard.
    .name = puzzle
cmd-puzzle-solve = A puzzle near your puzzle rating that you never tried, solved privately.
    .name = solve
opt-puzzle-solve-game = Which game (default: either)
    .name = game
cmd-puzzle-leaderboard = The best puzzle solvers here: rating, puzzles solved, best streak.
    .name = leaderboard

cmd-settings = How you hear of your move, and reminders.
    .name = settings
opt-settings-notify = How you are told that it is your move (and reminded)
    .name = notify
opt-settings-reminders = Reminders before your time per move runs out
    .name = reminders

cmd-vacation = Pause your deadlines for that many days.
    .name = vacation
opt-vacation-days = How many days
    .name = days

cmd-privacy = Your stored data; delete it.
    .name = privacy
cmd-privacy-show = What hexcord stores about you (only you see it).
    .name = show
cmd-privacy-delete = Delete what hexcord stores about you (asks to confirm).
    .name = delete

cmd-rules = A game's rules in short.
    .name = rules
opt-rules-game = Which game
    .name = game

cmd-learn = Learn to play, level by level.
    .name = learn
opt-learn-game = Which game (default: the next level of either)
    .name = game

cmd-help = How to play with this bot.
    .name = help

cmd-abort = Moderators: end a game without a result.
    .name = abort
opt-abort-game = The game number
    .name = game

cmd-server = Moderators: server settings.
    .name = server
opt-server-threads = Each new game gets its own thread (default: on)
    .name = threads
opt-server-language = The language of the bot's public messages here
    .name = language
opt-server-tournaments = Anyone may create tournaments (default: off, only those who manage the server or its events)
    .name = tournaments
opt-server-theme = The colours of boards, standings and charts (default: dark)
    .name = theme
cmd-daily_puzzle = Moderators: a daily puzzle here.
    .name = daily_puzzle
opt-daily_puzzle-hour = The hour of the post, in the server's time zone (0–23)
    .name = hour
opt-daily_puzzle-stop = Stop the daily puzzle
    .name = stop

## Choices

choice-game-0 = inpHeXion
choice-game-1 = EXXIT
choice-tiles-0 = 39 (standard)
choice-tiles-1 = 29 (blitz)
choice-tiles-2 = 19 (beginner)
choice-level-0 = beginner
choice-level-1 = easy
choice-level-2 = medium
choice-level-3 = hard
choice-days_per_move-0 = 1 day
choice-days_per_move-1 = 3 days (default)
choice-days_per_move-2 = 7 days
choice-days_per_move-3 = 14 days
choice-notify-0 = mention me in the game's channel
choice-notify-1 = send me a direct message with the board
choice-notify-2 = both
choice-reminders-0 = on
choice-reminders-1 = off
choice-threads-0 = on
choice-threads-1 = off
choice-theme-0 = dark
choice-theme-1 = light

## Help

help-head = **hexcord** — play inpHeXion and EXXIT here. On your turn, press **Move** under the board: it builds a legal move step by step.

## Answers

answer-server-only = This command works in a server, not in direct messages.
answer-no-such-game = There is no game #{ $game } in this server.
answer-thread-of-game = This thread belongs to game #{ $game }: start new games in <#{ $channel }>.
answer-game-elsewhere = Game #{ $game } is not played in this server: use the command in <#{ $channel }>.
answer-your-opponent = your opponent
answer-suggest-waiting = Not your turn: game #{ $game } waits for { $name }. You will be told when it is yours.
answer-suggest-game = #{ $game } { $title }, move { $move }{ $mine ->
    [yes] , your move
   *[no] {""}
}
answer-suggest-finished = #{ $game } { $title }, { $moves ->
    [one] 1 move
   *[other] { $moves } moves
}, { $state }
answer-active = active
answer-suggest-you = you
answer-time-left = { $left } left
answer-and-more = … and { $count } more.
answer-board-link = [board]({ $url })
answer-played-in = in <#{ $channel }>
answer-ply-range = Game #{ $game } has { $moves ->
    [one] 1 move
   *[other] { $moves } moves
}: pick a `ply` from 0 to { $moves } (you asked for { $asked }).
answer-showing-move = Showing the position after move { $ply } of { $moves }.
answer-no-games = { $who } has no active game here. `/challenge` someone!
answer-delivery-fault = ⚠️ its boards cannot be posted: { $fault }
answer-games-head = Active games of { $who }:
answer-games-line = • #{ $game } **{ $title }** { $first } vs { $second } · move { $move } · { $to_move } to move
answer-turn-head = Your move in:
answer-turn-line = • #{ $game } **{ $title }** vs { $opponent } in <#{ $channel }> · move { $move }
answer-turn-none = It is not your move in any game here. `/games` lists your active games.
answer-record = The record of game #{ $game } ({ $moves ->
    [one] 1 move
   *[other] { $moves } moves
}): the variant line, then one move a line. Load it with `hexcord engine` (`load`) or draw it with `hexcord render`.
answer-replay = Game #{ $game }, move by move.
notes-added = Noted on game #{ $game }, for you alone ({ $chars } of { $max } characters used). `/{ cmd-note.name }` without a text shows your notes; after the game, `/{ cmd-record.name }` gives them to you with the record.
notes-shown = Your private notes on game #{ $game } (only you see them):
    >>> { $notes }
notes-none = You keep no notes on game #{ $game }.
notes-blank = Nothing to add to your notes on game #{ $game }: the text is empty.
notes-too-long = Not saved: your notes on game #{ $game } would be { $chars } characters long, and at most { $max } are kept. Shorten them (the game's page edits them whole).
notes-not-yours = { $place ->
    [chat] Only the players of game #{ $game } keep notes on it.
   *[server] Only the players of game #{ $game } and members who follow it (`/follow`) keep notes on it.
}
answer-replay-too-large = The replay of game #{ $game } is too large to attach ({ $size } MB). `/record` gives the record; `hexcord render --replay` draws it.
answer-analysis = 📈 Analysis of game #{ $game } ({ $title }, { $first } vs { $second }): the chart shows each side's chance of winning after every move.
answer-analysis-turning = • Move { $number } ({ $name }, { $colour }): **{ $played }**. It lost { $loss } % of the chance to win ({ $before } % → { $after } %). Better: **{ $better }**.
answer-analysis-no-turning = No move lost { $loss } % or more of its player's chance: no single turning point.
answer-analysis-progress = 🔍 Analysing game #{ $game }: { $done } of { $total } positions searched…
answer-analysis-in-play = Game #{ $game } is still being played. Analysis is for finished games only, so that it cannot help anyone during a game.
answer-analysis-empty = Game #{ $game } ended before its first move: there is nothing to analyse.
answer-challenge-the-bot = To play against me, use `/play` and choose a level.
answer-challenge = { $opponent }, { $challenger } challenges you to **{ $options }**, { $rated ->
    [yes] rated
   *[no] unrated
}, { $clock }. { $challenger } plays { $colour } and moves first.
    Accept or decline below (open for { $hours } hours).
answer-bot-game = Game #{ $game } against me at level **{ $level }** (rated { $strength } in { $title }{ $chosen ->
    [yes] , the nearest to your { $yours }
   *[no] {""}
}) starts: the board follows { $thread ->
    [yes] in the game's own thread, opening in this channel
   *[no] in this channel
}.
answer-not-your-turn = It is not your turn: you will be told when it is. `/games` shows whose turn it is in each of your games.
answer-accept-takeback = Accept takeback
answer-decline = Decline
answer-call-it-off = Call it off
answer-play-on = Play on
answer-resign = Resign
answer-keep-playing = Keep playing
answer-really-resign = Really resign game #{ $game }? Your opponent wins.
answer-rating-line = { $place }. { $player } **{ $rating }**{ $provisional ->
    [yes] {" "}(provisional)
   *[no] {""}
} ±{ $deviation } · { $games ->
    [one] { $games } game
   *[other] { $games } games
} ({ $wins }–{ $losses }–{ $draws })
answer-leaderboard-empty = No rated { $title } game has been finished in this server yet. `/challenge` someone!
answer-leaderboard-title = { $title } leaderboard
answer-leaderboard-footer = Page { $page } of { $pages } · Glicko-2 rating ± deviation · provisional: deviation over { $provisional } · wins–losses–draws
answer-this-member = this member
answer-profile-unrated = { $who } has no rated game here yet.
answer-profile-learn = Learn to play
answer-profile-learn-line = { $game }: { $done }/{ $total } levels, { $stars }/{ $most } ★
answer-profile-rating = **{ $rating }** ±{ $deviation }{ $provisional ->
    [yes] {" "}(provisional)
   *[no] {""}
}
    { $games ->
        [one] { $games } game
       *[other] { $games } games
    }: { $wins } won, { $losses } lost, { $draws } drawn
answer-profile-bot = Against me
answer-profile-bot-line = { $title }, { $level } (rated { $strength }): { $wins } won, { $losses } lost{ $draws ->
    [0] {""}
   *[other] , { $draws } drawn
}
answer-recent-games = Recent games
answer-recent-line = #{ $game } { $title } vs { $opponent }: { $verdict ->
    [won] won
    [lost] lost
   *[drew] drew
} ({ $result }){ $rated ->
    [yes] {""}
   *[no] , unrated
}
answer-aborted = Game #{ $game } is aborted; the announcement follows in its channel.
answer-moderators-only = Only members who may manage the server can change its settings.
answer-threads-on = Threads: **on**. Each new game is played in its own thread, started from its challenge; the result is also posted here in one line, and the thread is archived when the game ends.
answer-threads-off = Threads: **off**. New games are played in the channel where they were challenged.
answer-language-state = Language of public messages: **{ $language }**{ $chosen ->
    [auto] {" "}(Discord's server language)
   *[set] {""}
}.
answer-theme-state = Pictures: { $theme ->
    [light] **light**, for light chat backgrounds
   *[dark] **dark**, for dark chat backgrounds
}. Change with `/server theme`.
answer-server-saved = Saved. { $state } Games already started stay where they are.
    { $language }
    { $tournaments }
answer-server-change = { $state }
    { $language }
    { $tournaments }
    Change them with `/server threads`, `/server language` and `/server tournaments`.
answer-language-name = English
answer-language-auto = automatic (Discord's server language)
answer-language-unknown = I do not speak `{ $value }`. Choose one of: { $known }.
answer-notify-channel = a mention in the game's channel
answer-notify-dm = a direct message with the board and its Move button (a mention in the game's channel when I cannot send you one)
answer-notify-both = a mention in the game's channel and a direct message with the board
answer-reminders-on = Reminders: the same way, when half your time for a move is left and again near the end.
answer-reminders-off = Reminders: off. Your deadlines still apply (`/turn` shows them).
answer-settings = Your turn: { $told }.
    { $reminded }
answer-settings-saved = Saved. { $settings }
answer-settings-change = { $settings }
    Change them with `/settings notify` and `/settings reminders`.
answer-vacation = Enjoy your vacation! Until <t:{ $until }:f> your deadlines are paused ({ $paused ->
    [one] { $paused } game
   *[other] { $paused } games
} waiting for your move got { $days ->
    [one] { $days } more day
   *[other] { $days } more days
}). Vacation days left in the next 365 days: { $left }.{ $seeks ->
    [0] {""}
    [one] {" "}Your open seek is withdrawn: a game would start your clock while you are away.
   *[other] {" "}Your { $seeks } open seeks are withdrawn: a game would start your clock while you are away.
}

privacy-head = **What hexcord stores about you** (only you see this):
privacy-nothing = hexcord stores nothing about you.
privacy-name = • Your display name as last seen: **{ $name }**
privacy-locale = • Your Discord language as last seen: { $locale }
privacy-games = • Games: { $total } ({ $playing } in play, { $over } over)
privacy-rating = • Rating in { $game } on server { $server }: { $rating } ({ $games ->
    [one] 1 game
   *[other] { $games } games
})
privacy-time-zone = • Time zone: { $zone }
privacy-table-player_settings = • Your settings (notices, reminders, time zone, digest)
privacy-table-vacations = • Vacations: { $count }
privacy-table-followers = • Games you follow: { $count }
privacy-table-web_tokens = • Private links to game boards: { $count }
privacy-table-inbox_tokens = • Private links to your inbox: { $count }
privacy-table-game_notes = • Games you keep private notes on: { $count }
privacy-table-conditional_moves = • Games with your conditional moves: { $count }
privacy-table-daily_puzzles = • Daily puzzles you set for a server (deleting stops them): { $count }
privacy-table-moves = • Moves you played: { $count }
privacy-table-takebacks = • Moves you took back: { $count }
privacy-table-game_pauses = • Pauses you asked for: { $count }
privacy-table-challenges = • Challenges you sent or received: { $count }
privacy-table-tournaments = • Tournaments you created or won: { $count }
privacy-table-tournament_players = • Tournament entries: { $count }
privacy-table-tournament_pairings = • Tournament pairings: { $count }
privacy-table-puzzle_attempts = • Puzzles you tried: { $count }
privacy-table-puzzle_ratings = • Puzzle ratings: { $count }
privacy-table-learn_progress = • Levels of the course you finished (/learn): { $count }
privacy-table-learn_attempts = • The level of the course you are playing: { $count }
privacy-table-puzzles = • Puzzles from your games (credited to you): { $count }
privacy-table-announcements = • Direct messages the bot sent you: { $count }
privacy-foot = `/{ cmd-privacy.name } { cmd-privacy-delete.name }` deletes your ratings, puzzle ratings and attempts, course progress, settings, vacations, links, follows, notes, conditional moves, the daily puzzles you set, and your name. Your games, tournament results and the puzzles from your games stay for others, naming you "{ former-member }" (puzzles: "{ puzzle-anonymous }").
privacy-confirm = This deletes your ratings, puzzle ratings and attempts, course progress, settings, vacations, private links, follows, private notes, conditional moves, the daily puzzles you set, and your name. Your games, tournament results and the puzzles from your games stay for others, naming you "{ former-member }" (puzzles: "{ puzzle-anonymous }"). It cannot be undone. Confirm within { $minutes } minutes:
privacy-blocked-games = Nothing was deleted: finish or resign your games in play first ({ $games }).
privacy-blocked-tournaments = Nothing was deleted: leave or withdraw from these tournaments first: { $tournaments }.
privacy-deleted = Done: your data is deleted ({ $rows ->
    [one] 1 entry
   *[other] { $rows } entries
}). Your past games name you "{ former-member }". If you use hexcord again, it stores your name again from then on.
privacy-confirm-stale = This confirmation has expired; nothing was deleted. Ask again with `/{ cmd-privacy.name } { cmd-privacy-delete.name }`.
privacy-not-yours = This confirmation belongs to another member; nothing was deleted.

cmd-tournament = Swiss and round-robin events.
    .name = tournament
cmd-tournament-create = Create a tournament; members join it with its buttons.
    .name = create
opt-tournament-create-name = The tournament's name
    .name = name
opt-tournament-create-format = Swiss (rounds chosen) or round robin (everyone meets everyone)
    .name = format
opt-tournament-create-rounds = Swiss: the number of rounds
    .name = rounds
opt-tournament-create-max_players = The most players who may join (default: no limit)
    .name = max_players
opt-tournament-create-signup_hours = Starts by itself this many hours from now (default: its organiser starts it)
    .name = signup_hours
opt-tournament-create-game = Which game
    .name = game
opt-tournament-create-days_per_move = Time for each move (default: 3 days); running out loses the game
    .name = days_per_move
opt-tournament-create-rated = Counts for the server's ratings (default: yes)
    .name = rated
opt-tournament-create-size = inpHeXion: board size (7 is standard)
    .name = size
opt-tournament-create-pie = Pie rule: the second player may swap after the first move
    .name = pie
opt-tournament-create-free_reply = inpHeXion: Black's first disc may go anywhere
    .name = free_reply
opt-tournament-create-neutral = inpHeXion: a neutral disc in the centre (odd sizes)
    .name = neutral
opt-tournament-create-tiles = EXXIT: number of tiles
    .name = tiles
opt-tournament-create-expert = EXXIT: players lay the first six tiles
    .name = expert
cmd-tournament-join = Join a tournament of this server (default: the newest one taking players).
    .name = join
opt-tournament-join-tournament = The tournament's number (default: the newest here)
    .name = tournament
cmd-tournament-leave = Leave a tournament before it starts.
    .name = leave
opt-tournament-leave-tournament = The tournament's number (default: the newest here)
    .name = tournament
cmd-tournament-start = Start a tournament now (its organiser, or a member who manages the server or its events).
    .name = start
opt-tournament-start-tournament = The tournament's number (default: the newest here)
    .name = tournament
cmd-tournament-withdraw = Withdraw from a tournament under way: your game in progress is resigned.
    .name = withdraw
opt-tournament-withdraw-tournament = The tournament's number (default: the newest here)
    .name = tournament
cmd-tournament-standings = A tournament's standings, as a table and in words.
    .name = standings
opt-tournament-standings-tournament = The tournament's number (default: the newest here)
    .name = tournament
cmd-tournament-export = A tournament as a FIDE TRF file (for federations and other pairing programs).
    .name = export
opt-tournament-export-tournament = The tournament's number (default: the newest here)
    .name = tournament
cmd-tournament-cancel = Organisers: call a tournament off; its games in progress end without a result.
    .name = cancel
opt-tournament-cancel-tournament = The tournament's number (default: the newest here)
    .name = tournament
cmd-tournament-pause = Organisers: pause a tournament's next round (the games under way go on).
    .name = pause
opt-tournament-pause-tournament = The tournament's number (default: the newest here)
    .name = tournament
cmd-tournament-resume = Organisers: resume a paused tournament; its next round is paired when due.
    .name = resume
opt-tournament-resume-tournament = The tournament's number (default: the newest here)
    .name = tournament
cmd-tournament-remove = Organisers: remove a player from a tournament under way (as a withdrawal).
    .name = remove
opt-tournament-remove-player = The player to remove
    .name = player
opt-tournament-remove-tournament = The tournament's number (default: the newest here)
    .name = tournament
cmd-tournament-correct = Organisers: correct the result of a decided tournament game; the standings follow.
    .name = correct
opt-tournament-correct-game = The game's number (as its round's pairings show it)
    .name = game
opt-tournament-correct-result = The right result, the first named player first
    .name = result
choice-format-0 = Swiss
choice-format-1 = round robin
choice-format-2 = double round robin
choice-result-0 = 1–0
choice-result-1 = 0–1
choice-result-2 = ½–½
choice-result-3 = 1–0 by forfeit
choice-result-4 = 0–1 by forfeit
answer-tournament-started = Tournament #{ $id } has started: its pairings follow in its channel.
answer-tournaments-open = Anyone here may create tournaments.
answer-tournaments-managers = Members who manage the server or its events create tournaments.
choice-tournaments-0 = on
choice-tournaments-1 = off

# The Activity's Entry Point command (registered when Activities are on).
entry-point = Open the game board inside Discord: the game here, or yours to move.
    .name = launch

## Puzzles (`/puzzle`)

puzzle-new = 🧩 A new puzzle for you (only your first try at a puzzle counts):
puzzle-resumed = 🧩 Your puzzle in progress, where you left it:
puzzle-title = **Puzzle #{ $id }** · { $game } { $variant } · difficulty { $difficulty }/5 · { $source }
puzzle-from-game = from { $a } vs { $b }, move { $number }
puzzle-from-starter = from the starter set
puzzle-anonymous = anonymous
puzzle-you = You
puzzle-to-move = **{ $colour } to move**: find the only good move{ $moves ->
    [1] {""}
   *[other] {" "}({ $moves } moves to find; I play the replies)
}.
puzzle-right = ✅ Right: **{ $words }**. I reply: { $replies }. Your move again.
puzzle-solved = ✅ **Solved** puzzle #{ $id } with **{ $words }**! { $rating }
puzzle-failed = ❌ Not this time: **{ $words }** lets it slip. The line was: { $line }. Puzzle #{ $id } counts as failed. { $rating }
puzzle-rating-change = Puzzle rating { $before } → **{ $after }** ({ $change }) · streak { $streak } (best { $best }).
puzzle-none-left = You have tried every puzzle here. New ones come from games analysed with `/{ cmd-analysis.name }`.
puzzle-none-left-of = You have tried every { $game } puzzle here. New ones come from games analysed with `/{ cmd-analysis.name }`.
puzzle-gone = This puzzle can no longer be shown. Nothing was counted; `/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` gives you another.
puzzle-not-yours = This puzzle is another member's. `/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` gives you your own.
puzzle-over = You have already finished this puzzle; only the first try counts. `/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` gives you the next.
puzzle-stale = This picker is from an earlier step of the puzzle, so nothing was played. `/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` shows where you are.
puzzle-leaderboard-title = Puzzle leaderboard
puzzle-leaderboard-line = { $place }. { $player } **{ $rating }** · { $solved } solved, { $failed } failed · best streak { $best }
puzzle-leaderboard-empty = Nobody has solved a puzzle here yet. Try `/{ cmd-puzzle.name } { cmd-puzzle-solve.name }`.
daily-puzzle-here = 🧩 The daily puzzle will be posted in this channel every day at { $hour }:00 ({ $zone }).
daily-puzzle-saved = Saved: the daily puzzle goes to <#{ $channel }> every day at { $hour }:00 ({ $zone }; `/{ cmd-server.name }` changes it).
daily-puzzle-state = The daily puzzle goes to <#{ $channel }> every day at { $hour }:00 ({ $zone }). Moderators change it with `/{ cmd-daily_puzzle.name } { opt-daily_puzzle-hour.name }` in the channel they want, or end it with `/{ cmd-daily_puzzle.name } { opt-daily_puzzle-stop.name }`.
daily-puzzle-unset = This server has no daily puzzle. Moderators start one with `/{ cmd-daily_puzzle.name } { opt-daily_puzzle-hour.name }` in the channel they want.
daily-puzzle-stopped = Stopped: no more daily puzzles here. The puzzles already posted are never posted again.
daily-puzzle-cannot-post = Nothing saved: { $why }
daily-puzzle-try-again = Discord did not answer; try again in a moment
