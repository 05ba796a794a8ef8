# ウェブ盤：サーバーの応答（ページ自身の文言は page.ftl）と、ボットからのリンク。
web-not-found = このページはありません。
web-picture-failed = この図を描けませんでした。ページを再読み込みしてください。
# トップページとルールのページ。
front-about = hexcord は、六角形の盤で遊ぶ2つのゲーム inpHeXion と EXXIT の Discord ボットです。「/{ cmd-challenge.name }」で友だちやボットに挑戦し、盤面の下の「指す」ボタンかこのウェブ盤で指して、対局をライブで観戦できます。
front-rules-head = ルール
front-rules-link = { $game } のルール
front-invite = hexcord をあなたの Discord サーバーに招待する
front-invite-later = ボットが Discord に接続すると、ここに招待リンクが表示されます。
# hexcord をローカルで動かすとき（DISCORD_TOKEN なし）のトップページ：新しい対局と保存された対局。
local-about = このコンピューターで inpHeXion と EXXIT を遊べます。hexcord と対局するか、一つの画面で二人で対局してください。対局はすべて保存され、ここから再開できます。
local-new-head = { $game } の新しい対局
local-opponent = 相手
local-against-bot = hexcord（{ $level }）
local-hot-seat = この画面で二人で対局
local-order = hexcord との対局で、あなたは
local-first = 先手
local-second = 後手
local-size = 盤
local-tiles = タイル
local-start = 始める
local-games-head = このコンピューターの対局
local-no-games = まだ対局はありません。上から始めてください。
local-game = #{ $id } { $variant }：{ $first } 対 { $second } — { $status }
local-to-move = { $name }の手番
local-open = 開く
local-discord = hexcord を Discord で動かすには、.env ファイルに DISCORD_TOKEN=… と書いて起動し直してください（README の「Running the bot」）。
local-you = あなた
local-player-two = プレイヤー2
local-bad-value = 「{ $value }」は{ $field }の選択肢にありません。ページの選択肢から選んでください。
local-too-many-bot-games = hexcord との対局がすでに{ $max }局進行中です。先にどれかを終えてください（ページに一覧があります）。
local-other-site = このフォームは別のサイトから送られました。対局は hexcord 自身のページから始めたり開いたりしてください。
local-back = 対局一覧に戻る
web-no-such-game = 対局 #{ $game } はありません。
web-no-such-ply = 対局 #{ $game } にその局面はありません。
web-status-to-move = { $name }（{ $colour }）の手番
web-move-words = { $colour }：{ $words }
web-supply = 残りタイル { $count }枚
web-chart-turning = { $number }手目（{ $colour }）：{ $played }。勝率 { $before } % → { $after } %。
web-token-missing = ここで指せるのは対局者だけです。対局 #{ $game } の Discord チャンネルで「指す」ボタンか「/{ cmd-board.name }」から自分専用のリンクを開いてください。
web-token-unknown = このリンクは無効です（途中で切れているか、打ち間違いかもしれません）。Discord の「指す」ボタンか「/{ cmd-board.name }」から盤をもう一度開いてください。
web-token-other-game = このリンクは対局 #{ $game } ではなく対局 #{ $other } のものです。この対局の「指す」ボタンか「/{ cmd-board.name }」から盤を開いてください。
web-token-not-player = このリンクのメンバーは対局 #{ $game } の対局者ではありません。
web-token-expired = 対局 #{ $game } が終わったため、このリンクは期限切れです。このリンクでは指せません。
inbox-token-unknown = この受信箱のリンクは無効です（途中で切れているか、打ち間違いかもしれません）。Discord の「/{ cmd-games.name }」で新しいリンクを受け取ってください。
inbox-token-expired = この受信箱のリンクは期限切れです（リンクの有効期間は{ $days }日です）。Discord の「/{ cmd-games.name }」で新しいリンクを受け取ってください。
web-bad-request = 要求を読み取れませんでした（{ $why }）。ページを再読み込みして、もう一度お試しください。
web-too-many = このリンクから短時間に多くの手が送られました。数秒待ってから、もう一度お試しください。
web-busy = ウェブ盤は、いまライブ表示を受け付けられる上限に達しています。少し待ってから、もう一度お試しください。
web-busy-client = あなたのアドレスから開かれているライブ盤が多すぎます。いくつか閉じてから、もう一度お試しください。
web-body-slow = 要求の到着が遅すぎました。もう一度お試しください。
web-metrics-forbidden = この数値はこのマシンの監視専用です。このマシンから要求するか、運営者の METRICS_TOKEN を Bearer トークンとして送ってください。
web-move-illegal = { $input } は対局 #{ $game } では指せません：{ $error }。
web-played = { $mv ->
        [pass] 対局 #{ $game } の{ $n }手目にパスしました。
       *[other] 対局 #{ $game } の{ $n }手目を指しました：{ $words }（{ $mv }）。
    }盤面はいつも通り Discord に投稿されます。
web-played-local = { $mv ->
        [pass] 対局 #{ $game } の{ $n }手目にパスしました。
       *[other] 対局 #{ $game } の{ $n }手目を指しました：{ $words }（{ $mv }）。
    }
web-link-open = 盤を開く
web-link-watch = ライブで見る
# 大会のページ（Web 盤の /tournament/<id>）とそのリンク。
web-tournament-link = Web で見る
web-tournament-state = { $status ->
        [signup] 参加受付中
        [finished] 終了
        [cancelled] 中止
       *[running] 第{ $round }ラウンド（全{ $rounds }ラウンド）
    }
web-tournament-standings = 第{ $round }ラウンド終了時点の順位
web-tournament-standings-none = まだ終わったラウンドはありません。
web-tournament-col-rank = 順位
web-tournament-col-player = プレイヤー
web-tournament-col-points = 得点
web-tournament-col-games = 対局数
web-tournament-col-buchholz = BH-1
web-tournament-col-sb = SB
web-tournament-col-direct = 直接対決
web-tournament-col-wins = 勝数
web-tournament-round = 第{ $round }ラウンド
web-tournament-bye = 不戦（{ $points }点）
web-tournament-void = 中止
web-tournament-playing = 対局中
web-tournament-game = 対局 #{ $game }
web-tournament-updates = このページは自動で更新されます。
web-link-private = 対局 #{ $game } を盤のクリックで指すための、あなた専用のリンクです（共有しないでください。対局が終わると無効になります）：
inbox-link = 手番の対局
inbox-link-private = すべてのサーバーであなたの手番を待っている対局を、ひとつのページで指せる、あなた専用のリンクです（共有しないでください。{ $days }日間有効です）：
inbox-off = このボットのウェブ盤は公開されていないため、受信箱のページはありません。
inbox-game = #{ $game } { $title } { $variant }　対 { $opponent }、{ $move }手目
# Discord 内のゲームページ（アクティビティ）。
activity-off = このボットでは、ゲームページを Discord 内で開く設定がされていません。
activity-not-ready = ボットはまだ Discord に接続中です。少し待ってからもう一度お試しください。
activity-code-refused = Discord があなたを確認できませんでした（サインインが拒否されたか期限切れです）。アクティビティを閉じて、もう一度開いてください。
activity-wrong-member = このサインインは、このアクティビティを開いたメンバーとは別のメンバーのものだと Discord が示しています。アクティビティを閉じて、もう一度開いてください。
activity-discord-unreachable = あなたを確認するための Discord に接続できませんでした。少し待ってからもう一度お試しください。
activity-too-many = 短時間にサインインが多すぎます。少し待ってから、アクティビティをもう一度開いてください。
activity-session-invalid = サインインが無効になりました。アクティビティを閉じて、もう一度開いてください。
activity-not-player = あなたは対局 #{ $game } の対局者ではありません。観戦中です。
activity-launch = Discord で対局
activity-proxy-forged = このリクエストは Discord 経由と称していますが、署名が正しくありません。
# 入門のページ（/learn）：サーバーが表示する文と、ページへのリンク。
learn-web-progress = { $game }：{ $total }レベル中{ $done }レベルクリア、星{ $most }個中{ $stars }個。
learn-web-stale = このレベルはほかの場所（Discord や別のタブ）で進んでいます。今の状態を表示します。
learn-web-no-game = 「{ $game }」という名前の学べるゲームはありません。
learn-web-stage-done = 🏁 ステージ「{ $name }」クリア。実戦で試してみましょう：ボットや友だちと { $game } を対局。
learn-web-link = { $game } を遊びながら学ぶ
learn-web-head = 遊び方を学ぶ
learn-web-about = 短いレベルを盤面で遊びながら、それぞれのゲームを学べます。
learn-web-open = ページで学ぶ
learn-web-private = Web の盤面でもコースを遊べます。進み具合はあなたのアカウントに保存されます。あなた専用のリンクです（共有しないでください。{ $days }日間有効です）：
