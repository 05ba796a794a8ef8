# Correspondence time: time controls, weekends off, time zones, the daily digest and pauses.

clock-per-move-days = { $days ->
    [one] { $days } day
   *[other] { $days } days
} per move
clock-per-move = { $time } per move
clock-fischer = Fischer clock: { $initial } + { $increment } a move, at most { $cap }
clock-weekends-off = { $clock }, weekends off

opt-challenge-clock = How time is kept (default: days per move)
    .name = clock
opt-challenge-weekends_off = Stop the clock Saturday 00:00 to Monday 00:00 in the mover's time zone (default: server setting)
    .name = weekends_off
opt-tournament-create-clock = How time is kept in its games (default: days per move)
    .name = clock
opt-tournament-create-weekends_off = Stop the clock of its games on weekends in the mover's time zone (default: the server's setting)
    .name = weekends_off
choice-clock-0 = days per move (default)
choice-clock-1 = Fischer: 1 day + 1 a move, at most 3
choice-clock-2 = Fischer: 3 days + 1 a move, at most 7
choice-clock-3 = Fischer: 7 days + 2 a move, at most 14

opt-settings-timezone = Your time zone, an IANA name such as Asia/Tokyo (for weekends off and your digest)
    .name = timezone
opt-settings-notifications = How often you hear of games waiting for your move
    .name = notifications
opt-settings-digest_hour = The hour of your daily digest in your time zone (0–23)
    .name = digest_hour
choice-notifications-0 = a notice for each move
choice-notifications-1 = one daily digest (at digest_hour)
choice-notifications-2 = none
clock-zone-unknown = `{ $zone }` is not a time zone: pick an IANA name from the list, such as `Asia/Tokyo` or `Europe/Paris`. Nothing was changed.
clock-digest-hour-bad = The digest hour is 0 to 23. Nothing was changed.
clock-zone-set = Your time zone: { $zone }.
clock-zone-unset = Your time zone: not set (your server's, else UTC).
clock-notifications-move = You hear of each move.
clock-notifications-digest = One digest a day at { $hour }:00 lists the games waiting for you.
clock-notifications-none = You are not told of your turns.
clock-settings = { $settings }
    { $zone } { $heard }

clock-digest = { $who }, { $count ->
    [one] a game waits
   *[other] { $count } games wait
} for your move, the least time first:
    { $lines }
clock-digest-line = • #{ $game } { $title } against { $opponent }: { $left } left · { $link }
clock-digest-no-clock = no clock

pause-bad-days = A pause lasts 1 to { $most } days, not { $days }. Nothing was changed.
pause-no-clock = Game #{ $game } has no clock to pause.
pause-already-proposed = A pause of game #{ $game } is already waiting for an answer.
pause-already-running = Game #{ $game } is paused until <t:{ $until }:f>.
pause-proposed = { $other }, { $who } proposes to pause game #{ $game } for { $days ->
    [one] { $days } day
   *[other] { $days } days
}: the clock stops for both of you. Accept or decline below.
pause-gone = This pause proposal no longer exists.
pause-answered = The pause of game #{ $game } was answered already.
pause-declined = { $who } declined the pause of game #{ $game }: the clock runs on.
pause-accepted = { $who } accepted: game #{ $game } is paused until <t:{ $until }:f>. Both players may resume it earlier with `/resume`.
pause-not-running = Game #{ $game } is not paused.
pause-resume-asked = You asked to resume game #{ $game } already; { $other } has to agree.
pause-resume-proposed = { $who } wants to resume game #{ $game } now; { $other }, use `/resume` to agree.
pause-resumed = Both players agreed: the clock of game #{ $game } runs again.
pause-accept = Pause
pause-decline = Keep playing

button-next-game = Next game

cmd-pause = Propose pausing a game's clock for 1–14 days.
    .name = pause
opt-pause-days = How many days (1–14)
    .name = days
opt-pause-game = Which game, when you have several here
    .name = game
cmd-resume = End a pause early, once both players ask.
    .name = resume
opt-resume-game = Which game, when you have several here
    .name = game

opt-server-weekends_off = New games take weekends off unless their challenge says otherwise (default: off)
    .name = weekends_off
opt-server-timezone = The time zone of members who set none (default: UTC)
    .name = timezone
choice-weekends_off-0 = on
choice-weekends_off-1 = off
clock-server-state = Weekends off for new games: { $weekends ->
    [on] on
   *[off] off
}. Members without a time zone: { $zone }.
clock-server = { $settings }
    { $clock }
    { $theme }
