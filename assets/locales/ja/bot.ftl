# hexcord の日本語テキスト：ボットの返答、お知らせ、ボタンとメニュー。
# メッセージ ID は英語版と同じで、変数も同じです。

## 失敗

apology = 申し訳ありません、こちら側で問題が発生しました。記録しましたので、少し待ってからもう一度お試しください。
game-changed = あなたが操作している間に対局 #{ $game } の局面が変わりました（見ていた局面とは異なります）。新しい盤面を見てから、もう一度お試しください。
option-unreadable = { $input } を読み取れませんでした：{ $error }。`/{ $command }` と入力し、候補から選んでください。
an-option = オプション

## The games' words

colour-white = 白
colour-black = 黒
colour-silver = 銀
colour-red = 赤
reason-connection = 連結
reason-no-legal-move = 合法手なし
reason-relocation-impossible = 移動不能
reason-resignation = 投了
reason-timeout = 時間切れ
reason-score = 得点 { $a }-{ $b }
reason-score-passes = 得点 { $a }-{ $b }（連続パス）
reason-score-repetition = 得点 { $a }-{ $b }（同一局面の反復）
reason-no-score = 得点
outcome-win = { $winner }の勝ち：{ $why }
outcome-draw = 引き分け：{ $why }
result-aborted-by-agreement = 合意により中止
result-aborted-by = { $by } により中止
left-none = 残り時間なし
left-under-a-minute = 1分未満
left-minutes = { $m }分
left-hours = { $h }時間{ $m }分
left-days = { $d }日
left-days-hours = { $d }日{ $h }時間

## Refusals

status-active = 対局中
status-finished = 終局
status-aborted = 中止
challenge-status-open = 受付中
challenge-status-accepted = 承諾済み
challenge-status-declined = 辞退済み
challenge-status-withdrawn = 取り下げ済み
challenge-status-expired = 期限切れ
game-over-start-new = 対局 #{ $game } は終わっています（{ $result }）。新しい対局は `/challenge` で始めてください。
game-not-yours = 対局 #{ $game } はあなたの対局ではありません（{ $a } と { $b } の対局です）。自分の対局は `/games` で確認できます。
not-your-turn = 対局 #{ $game } はあなたの手番ではありません。{ $who }（{ $colour }）の手番です。あなたの番になったらメンションでお知らせします。
time-ran-out = 対局 #{ $game } のこの手の持ち時間は <t:{ $at }:R> に切れました。時間切れ負けです。
no-such-active-game-here = このチャンネルに進行中の対局 #{ $game } はありません。自分の対局は `/games` で一覧できます。
no-active-game-here = このチャンネルに進行中の対局はありません。`/challenge` で始めるか、`/games` を見てください。
several-games-here = このチャンネルには複数の対局があります（{ $games }）。`game` オプションでどれかを指定してください。
not-a-game-number = `{ $input }` は対局番号ではありません。候補から選ぶか、`/games` を見てください。
abort-moderators-only = 対局を中止できるのはモデレーター（サーバー管理権限）だけです。プレイヤーは `/resign` で投了できます。
game-not-in-this-server = 対局 #{ $game } はこのサーバーの対局ではありません。
game-already-over = 対局 #{ $game } はすでに終わっています。
option-not-of-game = `{ $option }` は { $game } のオプションではありません。外すか、もう一方のゲームを選んでください。
options-do-not-fit = そのオプションは { $game } に合いません：{ $error }。`/rules { $name }` を見てください。
challenge-yourself = 自分自身には挑戦できません。`opponent` に別のメンバーを選んでください。
challenge-a-bot = ボットは挑戦を受けられません。`opponent` に人間のメンバーを選んでください。
challenge-not-open = この挑戦はもう受け付けていません（{ $status }）。
challenge-for-another = この挑戦は { $who } 宛てです。自分で対局するには `/challenge` を使ってください。
challenge-withdraw-own = この挑戦を取り下げられるのは、挑戦したメンバーだけです。
challenge-expired-answer = この挑戦は期限切れです。`/challenge` で新しく挑戦してください。
vacation-already = すでに <t:{ $until }:f> まで休暇中です。終わってから次の休暇を取ってください。
vacation-too-long = 今取れる休暇は 1〜{ $left } 日です（365 日あたり { $cap } 日まで、取得済み { $used } 日）。申請は { $days } 日でした。
move-cannot-be-played = `{ $input }` は対局 #{ $game } では指せません：{ $error }。`/move` と入力して候補から選んでください。
leaderboard-pages = 表は { $pages } ページあります。`page` には 1〜{ $pages } を指定してください。
