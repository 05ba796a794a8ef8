# Seeks: `/seek` asks for a game in a server, matched at once with a compatible seek of another
# member, or shown as a card any member may accept.

cmd-seek = Find an opponent here, now or later.
    .name = seek
opt-seek-game = Which game
    .name = game
opt-seek-sizes = Board sizes you would play, e.g. `7 9` (EXXIT: tiles, e.g. `29 39`); default: standard
    .name = sizes
opt-seek-other_game = Another game you would play too
    .name = other_game
opt-seek-other_sizes = The other game's sizes, e.g. `29 39`; default: standard
    .name = other_sizes
opt-seek-days_per_move = The least time for each move you would play (default: 3 days)
    .name = days_per_move
opt-seek-max_days_per_move = The most time for each move you would play (default: the least)
    .name = max_days_per_move
opt-seek-rated = Counts for the server's ratings (default: yes)
    .name = rated
opt-seek-expires = How long your seek waits for an opponent (default: 24 hours)
    .name = expires
choice-other_game-0 = inpHeXion
choice-other_game-1 = EXXIT
choice-max_days_per_move-0 = 1 day
choice-max_days_per_move-1 = 3 days
choice-max_days_per_move-2 = 7 days
choice-max_days_per_move-3 = 14 days
opt-seek-keep = Standing: keep me in this many games of these (1–10), seeking again whenever I have fewer
    .name = keep
opt-seek-stop = Yes: stop your standing seeks of this game here
    .name = stop
opt-seek-anywhere = Yes: players of other servers may match it too (the game is then played in direct messages)
    .name = anywhere

seek-card =
    { $author } seeks a game: **{ $variants }**, { $rated ->
        [yes] rated
       *[no] unrated
    }, { $days }. Any other member may accept until <t:{ $until }:f>.{ $anywhere ->
        [yes] {" "}It may also be matched with a player of another server who seeks so too (the game is then played in direct messages).
       *[no] {""}
    }{ $keep ->
        [0] {""}
       *[other] {" "}It is a standing seek: it keeps { $author } in { $keep ->
            [one] 1 game
           *[other] { $keep } games
        } of these, and is made again whenever they have fewer.
    }
seek-days-one = { $days ->
        [one] 1 day
       *[other] { $days } days
    } a move
seek-days-range = { $min }–{ $max } days a move
seek-or = { $first } or { $then }
seek-matched = { $who } matched the seek of { $author }: game #{ $game } ({ $options }) starts.
seek-matched-at-once = { $who } and { $author } were both looking for a game: game #{ $game } ({ $options }, { $days }) starts now.
seek-withdrawn = { $author } withdrew their seek ({ $variants }).{ $standing ->
        [yes] {" "}Their standing seek is stopped: it is not made again.
       *[no] {""}
    }
seek-expired = The seek of { $author } ({ $variants }) expired: nobody took it.
seek-taken = { $who } took this seek first: it is game #{ $game }. To find a game yourself, use `/{ cmd-seek.name }`.
seek-closed = This seek is no longer open (it { $status ->
        [matched] was matched
        [withdrawn] was withdrawn
       *[expired] expired
    }). To find a game, use `/{ cmd-seek.name }`.
seek-gone = This seek no longer exists. To find a game, use `/{ cmd-seek.name }`.
seek-own = This is your own seek: wait for another member to take it, or withdraw it.
seek-withdraw-own = Only the member who made this seek can withdraw it.
seek-on-vacation = You are on vacation until <t:{ $until }:f>: a game now would start your clock while you are away. Seek a game when you are back.
seek-too-many = You have { $open } open seeks, the most one member may have: withdraw one, or wait for them to be taken or to expire.
seek-variant-count = A seek names from 1 to { $max } variants (games and sizes together).
seek-variant-twice = { $variant } is named twice: name each variant once.
seek-days-bounds = The time per move must be between { $min } and { $max } days.
seek-days-reversed = The least time per move ({ $min } days) is more than the most ({ $max } days): swap them.
seek-in-a-server = A seek is matched among the members of a server: use `/{ cmd-seek.name }` in a server.
seek-sizes-unreadable = `{ $input }` is not a list of sizes: write numbers separated by spaces, e.g. `7 9`.
seek-other-sizes-alone = `{ opt-seek-other_sizes.name }` goes with `{ opt-seek-other_game.name }`: name the other game too.
seek-same-game = `{ opt-seek-other_game.name }` is the same game as `{ opt-seek-game.name }`: name both sizes in `{ opt-seek-sizes.name }` instead.
button-accept-seek = Accept: { $variant }
button-stop-standing = Withdraw and stop
standing-keep-bounds = `{ opt-seek-keep.name }` is the number of games to keep you in: from { $min } to { $max }.
standing-too-many = You have { $max } standing seeks in this server, the most one member may have: stop one with `/{ cmd-seek.name } { opt-seek-stop.name }`.
standing-twice = You have a standing seek for { $variant } in this server already: stop it with `/{ cmd-seek.name } { opt-seek-stop.name }` first.
standing-keep-and-stop = Give `{ opt-seek-keep.name }` to set a standing seek, or `{ opt-seek-stop.name }` to stop one, not both.
standing-none = You have no standing seek of { $game } in this server. To set one, use `/{ cmd-seek.name }` with `{ opt-seek-keep.name }`.
seek-away = { $author } is on vacation: their seek ({ $variants }) is withdrawn.
standing-paused = The seek of { $author } ({ $variants }) is paused while they are on vacation: it is made again when they are back.
standing-stopped = { $count ->
        [one] Your standing seek of { $game } is stopped
       *[other] Your { $count } standing seeks of { $game } are stopped
    }: no seek is made again, and the open ones are withdrawn. Your games go on.
standing-set = Standing seek set: you will be kept in { $keep ->
        [one] 1 game
       *[other] { $keep } games
    } of { $variants } here; whenever you have fewer and no open seek, a new seek is made for you (none while you are on vacation). { $now ->
        [matched] It was matched at once: game #{ $game } starts.
        [posted] Its seek is posted in <#{ $channel }>.
        [enough] You have as many games already: a seek is made when one ends.
       *[waiting] A seek is made when you can take a game.
    } To stop it, press its card's Withdraw and stop, or use `/{ cmd-seek.name } { opt-seek-stop.name }`.
privacy-table-standing_seeks = • Standing seeks (`/{ cmd-seek.name } { opt-seek-keep.name }`): { $count }
seek-pool-closed = This server's moderators keep it out of seeks across servers: seek without `{ opt-seek-anywhere.name }`, or ask them.
standing-anywhere = A standing seek is matched in this server only: leave out `{ opt-seek-anywhere.name }`.
seek-matched-across = { $who } was matched with a player of another server: game #{ $game } ({ $options }, { $days }) is played in your direct messages with me, where the board comes whenever it is your move.
seek-matched-elsewhere = The seek of { $author } ({ $options }) was matched with a player of another server: the game is played in direct messages.
seek-across-started = { $who }, your seek was matched across servers: game #{ $game }, { $options }, { $days }, against **{ $opponent }**. It is played here, in your direct messages with me: { $first ->
        [you] you move first, and
       *[opponent] they move first, and
    } the board comes here whenever it is your move. To never be matched with them again, use `/{ cmd-block.name } { opt-block-game.name }:{ $game }`.
place-direct = your direct messages
blocked-pair = One of you blocks the other: there is no game between you.
seek-posted = Your seek is posted in <#{ $channel }>: any member may take it there, and you will be mentioned when the game starts.

## The seek channel and the seek roles (moderators)

cmd-seeks = Moderators: seeks here and across servers.
    .name = seeks
opt-seeks-post_here = Yes: post unmatched seeks in this channel; no: stop posting them in a channel
    .name = post_here
opt-seeks-game = The game whose seek role you set or remove
    .name = game
opt-seeks-role = The role pinged with each seek of that game (members take it with a button)
    .name = role
opt-seeks-remove_role = Yes: that game's seeks ping no role any more
    .name = remove_role
opt-seeks-other_servers = Yes (default): members here may be matched with members of other servers; no: keep out
    .name = other_servers
seeks-state = { $saved ->
        [yes] Saved.{" "}
       *[no] {""}
    }Seek channel: { $channel }. Roles pinged: { $roles }. Seeks across servers: { $across ->
        [closed] this server is kept out
       *[open] allowed
    }.
seeks-none = none
seeks-notice = Seeks are posted here: use `/{ cmd-seek.name }` to find an opponent, or accept one below.{ $roles ->
        [yes] {" "}Press a game's button to be pinged with its seeks (press again to stop).
       *[no] {""}
    }
seeks-cannot-post = Nothing saved: I cannot post in <#{ $channel }>: { $why }
seeks-role-needs-game = Name the `{ opt-seeks-game.name }` whose role you set or remove.
seeks-role-and-remove = Give a `{ opt-seeks-role.name }` or `{ opt-seeks-remove_role.name }`, not both.
seeks-game-alone = With `{ opt-seeks-game.name }`, give the `{ opt-seeks-role.name }` to ping, or `{ opt-seeks-remove_role.name }`.
seeks-role-everyone = @everyone cannot be a seek role: create a role members may take, such as "inpHeXion players".
seeks-role-managed = The role `{ $role }` belongs to an integration: nobody can be given it. Choose another role.
seeks-role-not-mentionable = I cannot mention the role `{ $role }`: in the server's settings, allow everyone to mention it, or give me the Mention All Roles permission. Nothing saved.
seek-role-gone = This role is no longer a seek role here.
seek-role-taken = You now have { $role }: you will be pinged with new { $game } seeks. Press again to stop.
seek-role-dropped = You no longer have { $role }: no more pings with { $game } seeks.
seek-role-cannot = I could not change your role { $role }: a moderator must give me the Manage Roles permission, with my role above { $role }.
button-seek-role = { $game } seeks: ping me / stop
privacy-table-seeks = • Seeks you made (`/{ cmd-seek.name }`): { $count }

## The web board's lobby: the open seeks and challenges of a member's servers
lobby-seek = { $author } seeks { $variants }, { $rated ->
        [yes] rated
       *[no] unrated
    }, { $days }.
lobby-challenge = { $author } is looking for an opponent: { $options }, { $rated ->
        [yes] rated
       *[no] unrated
    }, { $clock }; { $author } moves first.{ $ranged ->
        [yes] {" "}For members rated { $range } in { $game }.
       *[no] {""}
    }
lobby-server-unknown = a server
lobby-started = Game #{ $game } ({ $options }) starts in { $server }: its boards are posted there, and you can play it here.
lobby-not-member = You are not known as a member of { $server }: use any hexcord command there once, then accept again.
privacy-table-server_members = • Servers where you used hexcord (their open games are in your inbox): { $count }

## Blocks (`/block`)
cmd-block = Block a member, or list your blocks.
    .name = block
opt-block-member = The member to block
    .name = member
opt-block-game = Or the number of a game: block its opponent (across servers, where you share no server)
    .name = game
opt-block-undo = Yes: unblock them
    .name = undo
block-done = You block { $who } now: you are never matched with them, and neither of you can challenge the other or take the other's challenge or seek. Games in play go on. To undo it, run the same command with `{ opt-block-undo.name }:True`.
block-already = You block { $who } already.
block-undone = You no longer block { $who }.
block-not-blocked = You do not block { $who }: nothing changed.
block-self = You cannot block yourself.
block-bot = I am not a member you can block: to stop playing me, just start no game with `/{ cmd-play.name }`.
block-name-one = Name a `{ opt-block-member.name }` or a `{ opt-block-game.name }`, not both.
block-not-your-game = Game #{ $game } is not one of yours: name a game you played.
block-list = { $count ->
        [0] You block nobody. To block a member, use `/{ cmd-block.name } { opt-block-member.name }`.
       *[other] You block: { $names }. To unblock one, name them (or your game with them) with `{ opt-block-undo.name }:True`.
    }
privacy-table-blocks = • Blocks (`/{ cmd-block.name }`, yours and other members' of you): { $count }
