# The web board: what the server answers (page.ftl holds the page's own words), and the bot's
# links to it.
web-not-found = There is no such page here.
web-picture-failed = This picture could not be drawn. Reload the page to try again.
# The front page and the rules pages.
front-about = hexcord is a Discord bot for two games on hexagonal boards, inpHeXion and EXXIT: challenge a friend or the bot with /{ cmd-challenge.name }, play by pressing Move under the board or on this web board, and watch your games live.
front-rules-head = The rules
front-rules-link = { $game } rules
front-invite = Invite hexcord to your Discord server
front-invite-later = The link to invite the bot appears here once it has connected to Discord.
# The front page when hexcord runs locally (no DISCORD_TOKEN): new games and the games stored.
local-about = Play inpHeXion and EXXIT on this computer, against hexcord or two players at one screen. Every game is stored, and can be resumed here.
local-new-head = A new game of { $game }
local-opponent = Opponent
local-against-bot = hexcord, { $level }
local-hot-seat = Two players at this screen
local-order = Against hexcord, you play
local-first = first
local-second = second
local-size = Board
local-tiles = Tiles
local-start = Start
local-games-head = Games on this computer
local-no-games = No games yet: start one above.
local-game = #{ $id } { $variant }: { $first } vs { $second } — { $status }
local-to-move = { $name } to move
local-open = Open
local-discord = To run hexcord on Discord, put DISCORD_TOKEN=… in its settings file (.env) and start it again (README, “Running the bot”).
local-you = You
local-player-two = Player 2
local-bad-value = “{ $value }” is not a choice for { $field }: pick one of the page's choices.
local-too-many-bot-games = You already have { $max } games against hexcord in play: finish one of them first (the page lists them).
local-other-site = This form was sent from another site: start and open games from hexcord's own page.
local-back = Back to the games
web-no-such-game = There is no game #{ $game }.
web-no-such-ply = There is no such position in game #{ $game }.
web-status-to-move = { $name } ({ $colour }) to move
web-move-words = { $colour }: { $words }
web-supply = Supply: { $count } tiles
web-chart-turning = Move { $number } ({ $colour }): { $played }. Chance to win { $before } % → { $after } %.
web-token-missing = Only a player can move here: open your private link from the Move button or /board in game #{ $game }'s Discord channel.
web-token-unknown = This link is not valid (it may be cut short or mistyped). Open the board again from the Move button or /board in Discord.
web-token-other-game = This link belongs to game #{ $other }, not to game #{ $game }. Open this game's board from its Move button or /board in Discord.
web-token-not-player = This link's member does not play game #{ $game }.
web-token-expired = This link expired when game #{ $game } ended: nothing can be played with it.
inbox-token-unknown = This inbox link is not valid (it may be cut short or mistyped). Ask for a new one with /games in Discord.
inbox-token-expired = This inbox link has expired (links work for { $days } days). Ask for a new one with /games in Discord.
web-bad-request = The request could not be read ({ $why }). Reload the page and try again.
web-too-many = Too many moves sent at once from this link: wait a few seconds, then try again.
web-busy = The web board is serving as many live boards as it can just now. Try again in a moment.
web-busy-client = Too many live boards are open from your address. Close some, then try again.
web-body-slow = The request arrived too slowly. Try again.
web-metrics-forbidden = The figures are for this machine's monitoring only: ask from this machine, or send the operator's METRICS_TOKEN as a bearer token.
web-move-illegal = { $input } cannot be played in game #{ $game }: { $error }.
web-played = { $mv ->
        [pass] You passed
       *[other] You played { $words } ({ $mv })
    } in game #{ $game }, move { $n }. The board is posted in Discord as always.
web-played-local = { $mv ->
        [pass] You passed
       *[other] You played { $words } ({ $mv })
    } in game #{ $game }, move { $n }.
web-link-open = Open the board
web-link-watch = Watch live
# The page of a tournament (/tournament/<id> on the web board) and the link to it.
web-tournament-link = Follow on the web
web-tournament-state = { $status ->
        [signup] Taking sign-ups
        [finished] Finished
        [cancelled] Called off
       *[running] Round { $round } of { $rounds }
    }
web-tournament-standings = Standings after round { $round }
web-tournament-standings-none = No round is decided yet.
web-tournament-col-rank = #
web-tournament-col-player = Player
web-tournament-col-points = Points
web-tournament-col-games = Games
web-tournament-col-buchholz = BH-1
web-tournament-col-sb = SB
web-tournament-col-direct = DE
web-tournament-col-wins = Wins
web-tournament-round = Round { $round }
web-tournament-bye = bye ({ $points })
web-tournament-void = called off
web-tournament-playing = playing
web-tournament-game = game #{ $game }
web-tournament-updates = This page updates by itself.
web-link-private = Your private link to play game #{ $game } by clicking the board (it is yours alone: do not share it; it expires when the game ends):
inbox-link = Games to play
inbox-link-private = Your private link to every game waiting for your move, on every server, to play them on one page (it is yours alone: do not share it; it works for { $days } days):
inbox-off = The web board is not public on this bot, so there is no inbox page.
inbox-game = #{ $game } { $title } { $variant } against { $opponent }, move { $move }
# The game page inside Discord (an Activity).
activity-off = The game page is not set up to run inside Discord on this bot.
activity-not-ready = The bot is still connecting to Discord: try again in a moment.
activity-code-refused = Discord did not confirm who you are (the sign-in was refused or has expired). Close the Activity and open it again.
activity-wrong-member = Discord says this sign-in belongs to another member than the one this Activity runs for. Close the Activity and open it again.
activity-discord-unreachable = Discord could not be reached to confirm who you are. Try again in a moment.
activity-too-many = Too many sign-ins at once. Wait a moment, then open the Activity again.
activity-session-invalid = Your sign-in is not valid any more. Close the Activity and open it again.
activity-not-player = You do not play game #{ $game }: you are watching it.
activity-launch = Play in Discord
activity-proxy-forged = This request claims to come through Discord but its signature is not valid.
# The learn page (/learn): what the server says there, and the links to it.
learn-web-progress = { $game }: { $done } of { $total } levels done, { $stars } of { $most } stars.
learn-web-stale = This level moved on elsewhere (in Discord or another tab): here it is as it stands now.
learn-web-no-game = There is no game called “{ $game }” to learn.
learn-web-stage-done = 🏁 Stage “{ $name }” complete. Try it for real: a game of { $game } against the bot or a friend.
learn-web-link = Learn { $game } by playing
learn-web-head = Learn to play
learn-web-about = Short levels teach each game by playing, on the board.
learn-web-open = Learn on the page
learn-web-private = Play the course on the web board too; your progress is kept with your account. This link is yours alone (do not share it; it works for { $days } days):
