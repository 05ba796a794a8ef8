# ウェブ盤：サーバーの応答（ページ自身の文言は page.ftl）と、ボットからのリンク。
web-not-found = このページはありません。
web-no-such-game = 対局 #{ $game } はありません。
web-no-such-ply = 対局 #{ $game } にその局面はありません。
web-status-to-move = { $name }（{ $colour }）の手番
web-move-words = { $colour }：{ $words }
web-token-missing = ここで指せるのは対局者だけです。対局 #{ $game } の Discord チャンネルで「指す」ボタンか「/{ cmd-board.name }」から自分専用のリンクを開いてください。
web-token-unknown = このリンクは無効です（途中で切れているか、打ち間違いかもしれません）。Discord の「指す」ボタンか「/{ cmd-board.name }」から盤をもう一度開いてください。
web-token-other-game = このリンクは対局 #{ $game } ではなく対局 #{ $other } のものです。この対局の「指す」ボタンか「/{ cmd-board.name }」から盤を開いてください。
web-token-not-player = このリンクのメンバーは対局 #{ $game } の対局者ではありません。
web-token-expired = 対局 #{ $game } が終わったため、このリンクは期限切れです。このリンクでは指せません。
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
web-link-open = 盤を開く
web-link-watch = ライブで見る
web-link-private = 対局 #{ $game } を盤のクリックで指すための、あなた専用のリンクです（共有しないでください。対局が終わると無効になります）：
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
