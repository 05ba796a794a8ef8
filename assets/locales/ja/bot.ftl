# hexcord の日本語テキスト：ボットの返答、お知らせ、ボタンとメニュー。
# メッセージ ID は英語版と同じで、変数も同じです。

## 失敗

apology = 申し訳ありません、こちら側で問題が発生しました。記録しましたので、少し待ってからもう一度お試しください。
storage-unavailable = 対局データベースに今つながらないため、何も指されず、何も変わっていません。少し待ってからもう一度お試しください。
game-changed = あなたが操作している間に対局 #{ $game } の局面が変わりました（見ていた局面とは異なります）。新しい盤面を見てから、もう一度お試しください。
option-unreadable = `/{ $command }` の { $option } を読み取れなかったため、何も行いませんでした。もう一度 `/{ $command }` と入力し、{ $option } を候補から指定してください。
option-unreadable-unnamed = `/{ $command }` のオプションを読み取れなかったため、何も行いませんでした。もう一度 `/{ $command }` と入力し、オプションを候補から指定してください。
option-not-a-choice = `/{ $command }` の { $option } に選択肢にない値が届いたため、何も行いませんでした。もう一度 `/{ $command }` と入力し、{ $option } を一覧から選んでください。
option-out-of-range = `/{ $command }` の { $option } は{ $range }で指定してください。何も行いませんでした。
option-bad-length = `/{ $command }` の { $option } は{ $range }の文字数で入力してください。何も行いませんでした。
option-range-between = { $min }から{ $max }まで
option-range-at-least = { $min }以上
option-range-at-most = { $max }以下

## The games' words

former-member = 元メンバー
colour-white = 白
colour-black = 黒
colour-silver = 銀
colour-red = 赤
outcome-win = { $winner }の勝ち{ $how }
outcome-draw = 引き分け{ $how }
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
game-over-start-new = 対局 #{ $game } は終わっています（{ $result }）。新しい対局は `/{ cmd-challenge.name }` で始めてください。
game-not-yours = 対局 #{ $game } はあなたの対局ではありません（{ $a } と { $b } の対局です）。自分の対局は `/{ cmd-games.name }` で確認できます。
not-your-turn = 対局 #{ $game } はあなたの手番ではありません。{ $who }（{ $colour }）の手番です。あなたの番になったらメンションでお知らせします。
time-ran-out = 対局 #{ $game } のこの手の持ち時間は <t:{ $at }:R> に切れました。時間切れ負けです。
no-such-active-game-here = このチャンネルに進行中の対局 #{ $game } はありません。自分の対局は `/{ cmd-games.name }` で一覧できます。
no-active-game-here = このチャンネルに進行中の対局はありません。`/{ cmd-challenge.name }` で始めるか、`/{ cmd-games.name }` を見てください。
several-games-here = このチャンネルには複数の対局があります（{ $games }）。`{ opt-move-game.name }` オプションでどれかを指定してください。
not-a-game-number = `{ $input }` は対局番号ではありません。候補から選ぶか、`/{ cmd-games.name }` を見てください。
abort-moderators-only = 対局を中止できるのはモデレーター（サーバー管理権限）だけです。プレイヤーは `/{ cmd-resign.name }` で投了できます。
game-not-in-this-server = 対局 #{ $game } はこのサーバーの対局ではありません。
game-already-over = 対局 #{ $game } はすでに終わっています。
option-not-of-game = `{ $option }` は { $game } のオプションではありません。外すか、もう一方のゲームを選んでください。
options-do-not-fit = そのオプションは { $game } に合いません：{ $error }。`/{ cmd-rules.name } { opt-rules-game.name }:{ $name }` を見てください。
challenge-yourself = 自分自身には挑戦できません。`{ opt-challenge-opponent.name }` に別のメンバーを選んでください。
challenge-a-bot = ボットは挑戦を受けられません。`{ opt-challenge-opponent.name }` に人間のメンバーを選んでください。
challenge-not-open = この挑戦はもう受け付けていません（{ $status }）。
challenge-for-another = この挑戦は { $who } 宛てです。自分で対局するには `/{ cmd-challenge.name }` を使ってください。
challenge-withdraw-own = この挑戦を取り下げられるのは、挑戦したメンバーだけです。
challenge-expired-answer = この挑戦は期限切れです。`/{ cmd-challenge.name }` で新しく挑戦してください。
vacation-already = すでに <t:{ $until }:f> まで休暇中です。終わってから次の休暇を取ってください。
vacation-too-long = 今取れる休暇は 1〜{ $left }日です（365日あたり { $cap }日まで、取得済み { $used }日）。申請は { $days }日でした。
move-cannot-be-played = `{ $input }` は対局 #{ $game } では指せません：{ $error }。`/{ cmd-move.name }` と入力して候補から選んでください。
leaderboard-pages = 表は { $pages }ページあります。`{ opt-leaderboard-page.name }` には 1〜{ $pages } を指定してください。

## Boards

alt-game = { $game } 対局 #{ $id }
alt-at-start = 開始時
alt-after-move = { $n }手目の後
alt-to-move = { $colour }の手番
alt-score = 、得点 { $first } { $a }–{ $b } { $second }
alt-text = { $game } 対局 #{ $id }（{ $when }）：{ $state }{ $score }
alt-rules = { $game } の初期盤面。
alt-chart = { $game } 対局 #{ $id } の勝率の推移（コンピューター解析、1手ごと）。
alt-turning-before = { $game } 対局 #{ $id } の転換点：{ $number }手目の前の盤面。
alt-turning-played = { $game } 対局 #{ $id } の転換点：実戦の{ $number }手目の後の盤面。
alt-turning-better = { $game } 対局 #{ $id } の転換点：{ $number }手目に解析が勧める手を指した後の盤面。
alt-replay = { $game } 対局 #{ $id } の初手から終局までの再生（{ $moves }手）。
caption-head = **{ $game }** 対局 #{ $id } · { $a } 対 { $b }
caption-played = { $n }手目 · { $who }：{ $words }
caption-to-move = { $who }（{ $colour }）の手番です。
caption-to-move-until = { $who }（{ $colour }）の手番です。持ち時間は <t:{ $at }:R> に切れます。
caption-over = 対局終了：{ $result }。
caption-over-won = 対局終了：{ $result }。おめでとうございます！
caption-then-moved = ⏭ 次の手：{ $n }手目 · { $who }：{ $words }
caption-then-taken-back = ⏭ その後、{ $n }手目は待ったで取り消されました。
caption-then-over = ⏭ その後、対局は終わりました：{ $result }。
caption-replay = `/{ cmd-replay.name } { opt-replay-game.name }:{ $id }` で対局を再生できます。棋譜は `/{ cmd-record.name } { opt-record-game.name }:{ $id }` で。

## Game actions

no-such-game = 対局 #{ $game } はありません。進行中の対局は `/{ cmd-games.name }` で一覧できます。
following = 観戦中：{ $names }
your-move-direct = { $who }：対局 #{ $game }（<#{ $place }>）であなたの手番です。下の **指す** を押してください。
chat-opponent-not-told = { $who } にはダイレクトメッセージで知らせられませんでした（hexcord が書き込めるのは、同じサーバーにいるメンバーか hexcord をインストールしたメンバーだけです）。対局はそのままで、次にここを見たときにこの盤面が見えます。
players-beat = { $winner } が { $loser } に勝ちました{ $how }
players-drew = { $a } と { $b } は引き分け{ $how }
player-colour = { $who }（{ $colour }）
caption-notation = -# `{ $mv }`
its-thread = そのスレッド
result-line = 🏁 **{ $game }** 対局 #{ $id }：{ $result }。最終盤面は { $thread } にあります。`/{ cmd-replay.name } { opt-replay-game.name }:{ $id }` で対局を再生できます。
resigned = { $who } が投了しました。
game-over-replay = 対局 #{ $game } は終わっています（{ $result }）。`/{ cmd-replay.name }` で再生できます。
call-off-too-late = 対局 #{ $game } はすでに進んでいます（両者が 2手ずつ指しました）。もう取りやめにはできません。`/{ cmd-resign.name }` で投了はできます。
call-off-proposed = { $opponent }、{ $who } が対局 #{ $game } の取りやめを提案しています。取りやめると結果なしで終わり、レーティングは変わりません。
only-they-answer-proposal = この提案に答えられるのは { $who } だけです。
call-off-moved-on = この提案の後で対局 #{ $game } は進みました。まだ二人とも望むなら `/{ cmd-calloff.name }` でもう一度提案してください。
call-off-declined = { $who } は続行を希望しました。対局 #{ $game } は続きます。
called-off = 対局 #{ $game }（{ $a } 対 { $b }）は合意により取りやめになりました。結果はありません。
call-off-done = 対局 #{ $game } を取りやめました。
aborted-by-moderator = 対局 #{ $game }（{ $a } 対 { $b }）はモデレーターにより中止されました。結果はありません。
takeback-your-turn = 待ったができるのは、相手が指す前の自分の最後の手だけです。対局 #{ $game } は今あなたの手番です。
takeback-against-bot = わたしはすぐに指し返すので、わたしとの対局では待ったできる手がありません。
takeback-asked = { $opponent }、{ $who } が対局 #{ $game } の { $ply }手目（{ $words }）の待ったを求めています。承諾すると、その手の前の局面・残り時間で相手の手番に戻ります。断るとその手はそのままです。
takeback-moved-on = この待ったの依頼の後で対局 #{ $game } は進みました。{ $ply }手目はそのままです。
only-they-answer-request = この依頼に答えられるのは { $who } だけです。
takeback-declined = { $who } は対局 #{ $game } の { $ply }手目の待ったを断りました。その手はそのままです。
took-back = { $asker } が { $who } の承諾を得て { $ply }手目（{ $words }）を待ったしました。
takeback-done = 対局 #{ $game } の { $ply }手目を取り消しました。
ran-out-of-time = { $who } の持ち時間が切れました。
reminder = ⏰ お知らせ：{ $who }、<#{ $place }> の **{ $game }** 対局 #{ $id }（相手 { $opponent }）はあなたの手番です。残り { $left }。下の「指す」ボタンで指せます。お知らせは `/{ cmd-settings.name }` で止められます。
reminder-until = ⏰ お知らせ：{ $who }、<#{ $place }> の **{ $game }** 対局 #{ $id }（相手 { $opponent }）はあなたの手番です。残り { $left }（<t:{ $until }:f> まで）。下の「指す」ボタンで指せます。お知らせは `/{ cmd-settings.name }` で止められます。
challenge-expired = { $challenger } から { $opponent } への挑戦（{ $options }）は返事がないまま期限切れになりました。
challenge-already-open = あなたと { $opponent } の間にはすでに受付中の { $game } の挑戦があります（挑戦 #{ $id }）。先にそれに答えるか、取り下げてください。
too-many-challenges = 受付中の挑戦が { $open }件あり、これが上限です。返事を待つか、いくつか取り下げてください（どれも期限が来れば締め切られます）。
rematch-players-only = 対局 #{ $game } の再戦を申し込めるのはその対局者だけです。自分の対局は `/{ cmd-challenge.name }` で始めてください。
game-still-played = 対局 #{ $game } はまだ続いています。
rematch-against-bot = わたしともう一局指すには `/{ cmd-play.name }` を使ってください（先手は `{ opt-play-first.name }` で選べます）。
rated = レーティング対象
unrated = レーティング対象外
rematch-offered =
    { $opponent }、{ $who } が対局 #{ $game }（{ $options }、{ $rated }、同じ持ち時間）の再戦を手番を入れ替えて申し込んでいます。{ $first } が{ $colour }で先手です。
    下のボタンで承諾または辞退してください（{ $hours }時間有効）。
challenge-gone = 挑戦 #{ $id } はもうありません。
challenge-answered-meanwhile = 挑戦 #{ $id } には先に返事がありました。
challenge-declined = { $opponent } は { $challenger } の挑戦（{ $options }）を辞退しました。
challenge-withdrawn = { $challenger } は { $opponent } への挑戦（{ $options }）を取り下げました。
challenge-accepted = { $opponent } が { $challenger } の挑戦を受けました。対局 #{ $game }（{ $options }）が下で始まります。
too-many-bot-games = わたしとの対局がすでに { $max }局あります。先にどれかを終えるか `/{ cmd-resign.name }` してください（`/{ cmd-games.name }` で一覧できます）。
plays-me = { $who } がレベル **{ $level }** でわたしと対局します（{ $options }、レーティング対象外）。
plays-me-coached = { $who } がレベル **{ $level }** でわたしと対局します（{ $options }、レーティング対象外、コーチ付き）。**指す** を押してから **💡 ヒント** で、よい手とその理由が見られます。

## コーチ付きの対局（/play の coach）
coach-button = ヒント
coach-hint =
    💡 おすすめの手：**{ $words }**（`{ $mv }`）
    { $why }
    { $threat }
coach-why-only = 指せる手はこれだけです。
coach-why-wins = この手ですぐに勝てます。
coach-why-stops = { $them }が次の手で連結するのを防ぎます。
coach-why-relocates = 相手のディスクを{ $n }枚囲み、いちばん邪魔にならないマスへ移せます。
coach-why-closer = この手の後、自分の辺と辺をつなぐ最短の列に足りないマスは{ $mine }つ、{ $them }は{ $theirs }つです。
coach-why-dance = 破壊ダンスは義務です。このダンスの後の得点は { $mine }–{ $theirs }（自分が先）です。
coach-why-tiles = タイルを{ $n }枚置き、得点は { $was } から { $now } になります（自分が先）。
coach-why-builds = 次のタイルへの準備です。得点は { $score } のままです（自分が先）。
coach-no-threat = いま{ $them }に受けるべき脅威はありません。
coach-threat-connects = ⚠️ { $them }は { $cells } のあなたのディスクを押し出してそこに置けば連結します。
coach-threat-reply = ⚠️ { $them }の最善の応手 `{ $with }` に注意してください。得点が { $score }（自分が先）になります。
coach-not-coached = 対局 #{ $game } にはコーチが付いていません。`/{ cmd-play.name }` の coach を指定して始めてください。
coach-not-yours = 対局 #{ $game } のヒントは、コーチを受けているプレイヤーだけが見られます。

## The Move button's picker

picker-row = { $n }行目
picker-row-r = r = { $r } の行
picker-group = { $name }（{ $n }マス）
pick-swap = 色を交換する
pick-pass = パス
pick-place-on = { $cell } にディスクを置く
pick-push = { $cell } のディスクを押す
pick-push-to = { $cell } へ押し出す
pick-relocate = { $from } を { $to } へ移す
pick-dance = { $cell } のスタックで破壊ダンス
pick-onto = { $cell } へ
pick-onto-space = { $cell } へ（外宇宙へ落ちる）
pick-lay = タイルを置く（世界の拡張）
pick-lay-at = { $cell } にタイルを置く
pick-lay-at-chain = { $cell } にタイルを置き、連鎖でさらに{ $extra }枚
pick-place = ディスクを置く
ask-swap-or-place = 色を交換する（パイルール）か、ディスクを置いてください
ask-place-where = どこにディスクを置きますか？
ask-push-which = どのディスクを押しますか？（あなたのディスクはその跡に置かれます）
ask-push-where = 押したディスクはどこへ行きますか？
ask-relocate-where = 移すディスクはどこへ行きますか？
ask-only-pass = ほかに指せる手はありません
ask-swap-or-build = 色を交換する（パイルール）か、世界を構築してください
ask-dance-which = 破壊ダンスが強制です。どのスタックが踊りますか？
ask-onto-which = どの相手のスタックに当てますか？
ask-lay-or-place = タイルを置きますか、ディスクを置きますか？
ask-lay-where = 外宇宙のどのスタックをタイルにしますか？
ask-place-tile = どの空きタイルに置きますか？
words-push = { $from } のディスクを { $to } へ押し出す
words-relocate = { $from } を { $to } へ移す
words-then = { $first }{ words-separator }{ $next }
words-dance = { $from } のスタックを { $onto } へ破壊ダンス
words-dance-space = { $from } のスタックを { $onto } へ破壊ダンス（外宇宙へ落ちる）
words-separator = 、

## Buttons and the picker's answers

button-accept = 承諾
button-privacy-delete = データを削除する
button-decline = 辞退
button-withdraw = 取り下げ
button-rematch = 再戦
button-move = 指す
button-follow = 観戦
button-fresh-picker = 新しく選び直す
button-cancel = キャンセル
button-back = 戻る
button-play = この手を指す
stale-button = このボタンはもう使えません（対局や挑戦が進みました）。自分の対局は `/{ cmd-games.name }` で確認し、新しく始めるには `/{ cmd-challenge.name }` を使ってください。
follow-again-button = **観戦** をもう一度押すと
following-now = 対局 #{ $game } を観戦中です。結果が出たらメンションでお知らせします。やめるには{ $again }解除できます。
not-following = 対局 #{ $game } の観戦をやめました。
follow-not-in-chats = 対局 #{ $game } はダイレクトメッセージかグループチャットでの対局で、盤面はそこにいる全員に見えます。観戦できるのはサーバーの対局だけです。
and-its-thread = { $first }スレッド：<#{ $thread }>。
and-not-added-to-thread = { $first }スレッド <#{ $thread }> に追加できませんでした。開いて参加してください。
and-not-removed-from-thread = { $first }スレッド <#{ $thread }> から外せませんでした。スレッドのメニューから退出してください。
picker-cancelled = 対局 #{ $game } では何も指していません。準備ができたら盤面の下の **指す** を押してください。
you-resigned = 対局 #{ $game } を投了しました。
keep-playing = がんばってください！ 準備ができたら「指す」を押してください。
rematch-offered-there = <#{ $channel }> で再戦を申し込みました。{ $opponent } がそこで返事をします。
rematch-not-posted = <#{ $channel }> に再戦の申し込みを投稿できませんでした：{ $why }。申し込みは取り消しました。解決したらもう一度「再戦」を押してください。
game-over-plain = 対局 #{ $game } は終わっています（{ $result }）。
game-between = 対局 #{ $game } は { $a } と { $b } の対局で、今は { $who } の手番です。自分で指すには `/{ cmd-challenge.name }` でメンバーに挑戦するか、`/{ cmd-play.name }` でわたしと対局してください。
their-turn-not-yours = 対局 #{ $game } は { $who } の手番で、あなたの番ではありません。あなたの番になったらお知らせします。
you-played = { $mv ->
        [pass] 対局 #{ $game } の{ $n }手目にパスしました。
       *[other] 対局 #{ $game } の{ $n }手目を指しました：{ $words }（`{ $mv }`）。
    }盤面は <#{ $place }> に続けて投稿されます。
plans-added = 対局 #{ $game } で先の手を予約しました（見られるのはあなただけです）：`{ $line }`（相手の手から、自分の手と交互）。予約中の手順は{ $count }通りです。相手が手順の最初の手を指すと、あなたの応手がすぐに指されます。それ以外の手が指されると予約はすべて消えます。
plans-shown = 対局 #{ $game } のあなたの予約手（見られるのはあなただけです。相手の手から交互）：
    { $lines }
plans-none = 対局 #{ $game } に予約手はありません。
plans-removed = 対局 #{ $game } の予約手を削除しました。残りは{ $count }通りです。
plans-no-branch = 対局 #{ $game } に `{ $line }` で始まる予約手順はありません。何も変わっていません。
plans-your-move = 対局 #{ $game } はあなたの手番です。手だけを指定して指してください。予約手は相手の手番のあいだに入力します。
plans-not-here = 対局 #{ $game } では予約手は使えません。Discord でのメンバー同士の対局だけが対象です。
plans-line-length = 対局 #{ $game } の予約手順は、相手の手とあなたの応手を1組として何組か続けたもので、全部で{ $max }手までです。
plans-line-ends = 対局 #{ $game } の手順の{ $n }手目（`{ $input }`）は予約できません：その時点で終局しているか、その手番ではありません。
plans-illegal = 対局 #{ $game } の手順の{ $n }手目（`{ $input }`）は、その局面で指せません：{ $error }。何も予約していません。
plans-too-many = 予約しませんでした：対局 #{ $game } で保存できる手順は{ $max }通りまでです。先に手順を削除してください。
plans-played = ⏩ 相手の手（{ $words }、`{ $mv }`）に、{ $who } が予約していた応手をすぐに指しました。
plans-missed = 対局 #{ $game } の予約手はすべて消えました：相手の手（{ $words }、`{ $mv }`）は、予約したどの手順にもありませんでした。あなたの手番です。
picker-stale = この選択画面を開いた後で対局 #{ $game } の局面が変わりました（今は { $n }手目の後です）。何も指していません。
picker-title = **{ $game }** 対局 #{ $id } · あなたの手番
picker-confirm = この手を指しますか？ **{ $words }**（`{ $mv }`）。画像はこの手を指した後の盤面です。


## Delivery

refused-missing-permissions = Discord に「Missing Permissions」で拒否されました。<#{ $channel }> で「チャンネルを見る」「メッセージを送信」「ファイルを添付」の権限が必要です
refused-missing-access = Discord に「Missing Access」で拒否されました。<#{ $channel }> が見えません（「チャンネルを見る」の権限がありません）
refused-unknown-channel = <#{ $channel }> はもう存在しません（「Unknown Channel」）
refused-other = Discord が <#{ $channel }> へのメッセージを拒否しました（HTTP { $status }、コード { $code }：{ $message }）
could-not-post-here = ⚠️ <#{ $channel }> にこれを投稿できませんでした：{ $why }。モデレーターが直せます。
direct-refused-fault = { $who } へのダイレクトメッセージを Discord が拒否しました（コード { $code }：{ $message }）。サーバーメンバーからのダイレクトメッセージを許可していない可能性があります
direct-refused-opponent = ⚠️ 対局 #{ $game } の盤面を **{ $who }** にダイレクトメッセージで送れませんでした（Discord の拒否：コード { $code }、「{ $message }」）。サーバーメンバーからのダイレクトメッセージを許可していない可能性があります。対局は相手の手番のまま待ち、相手の持ち時間はいつもどおり減ります。相手はウェブ盤の受信箱から指せます（受信箱へのリンクは `/{ cmd-games.name }` で表示されます）。
moderators-no-threads = 🔧 モデレーターの方へ：<#{ $channel }> で対局ごとのスレッドを作れません（Discord の拒否：「{ $message }」）。そこで「公開スレッドの作成」と「スレッドでメッセージを送信」の権限が必要です。それまで対局はこのチャンネルで行います。`/{ cmd-server.name } { opt-server-threads.name }:{ choice-threads-1 }` にすると、このお知らせなしでここで対局します。
moderators-no-thread-posts = 🔧 モデレーターの方へ：<#{ $channel }> の対局スレッドに投稿できません（Discord の拒否：「{ $message }」）。そこで「スレッドでメッセージを送信」の権限が必要です。それまで対局はこのチャンネルで行います。
moderators-thread-left = 🔧 モデレーターの方へ：対局 #{ $game } のスレッド <#{ $thread }> に投稿できません（Discord の拒否：「{ $message }」。ロックされたスレッドではこうなります）。対局はこのチャンネルで続けます。
moderators-no-archive = 🔧 モデレーターの方へ：<#{ $channel }> の終局した対局のスレッドをアーカイブできません（Discord の拒否：「{ $message }」）。そこで「スレッドの管理」の権限が必要です。権限がなくても、スレッドは 1週間メッセージがなければ自動で閉じます。
# 変種の言葉：`inpHeXion 7×7、パイルール`。
variant = { $game } { $size }
variant-inphexion = { $size }×{ $size }
variant-exxit = タイル { $tiles }枚
variant-and = { $variant }、{ $flag }
variant-pie = パイルール
variant-free-reply = 自由応手
variant-neutral = 中立ディスク
variant-expert = 上級

## 今日のパズル (crate::play::daily)

daily-puzzle = 🧩 **今日のパズル**：{ $game }、{ $colour }の手番、難易度 { $difficulty }/5。勝ちを守る（または負けを防ぐ）手はひとつだけ。**解く**を押して、自分だけの画面で探してください。答えは明日のパズルと一緒に出ます。
daily-puzzle-solution = 🧩 前回のパズルの答え：{ $line }。{ $solved }
daily-puzzle-solved-by = 正解した人（{ $count }人）：{ $names }。
daily-puzzle-more = 、ほか{ $count }人
daily-puzzle-nobody = 正解した人はいませんでした。
daily-puzzle-none-left = 🧩 ここにはすべてのパズルを出しました。新しいパズル（`/{ cmd-analysis.name }` で解析した対局から見つかります）を待っています。
button-daily-solve = 解く
daily-puzzle-unknown = このボタンはこのサーバーの今日のパズルのものではありません。
daily-puzzle-over = この「今日のパズル」は終わりました（答えは投稿済みです）。新しい「今日のパズル」か、自分用の `/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` を試してください。
puzzle-alt = パズル：{ $game }、{ $colour }の手番
daily-puzzle-tried = このパズルはもう挑戦済みです（数えるのは最初の挑戦だけです）。`/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` で別のパズルに挑戦できます。
daily-puzzle-solving = 🧩 今日のパズル（あなただけに表示）：
