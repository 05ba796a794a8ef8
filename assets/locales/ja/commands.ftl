# スラッシュコマンド：Discord に表示される名前と説明、そして応答。
#
# `cmd-<command>`: コマンドの説明、`.name` はその名前。
# `opt-<command>-<option>`: オプションの説明、`.name` はその名前。
# `choice-<option>-<n>`: オプションの n 番目（0 から）の選択肢の名前。
# 名前は小文字・空白なし・32文字以内（Discord の規則。テストで確認）。

## コマンド

cmd-challenge = メンバーに対局を申し込みます（相手を指定しなければ対局相手を募集します）。
    .name = 挑戦
opt-challenge-opponent = 対戦相手（指定しなければ、このサーバーの誰でも受けられる募集になります）
    .name = 相手
opt-challenge-game = どのゲームか
    .name = ゲーム
opt-challenge-size = inpHeXion: 盤のサイズ（標準は7）
    .name = サイズ
opt-challenge-pie = パイルール：後手は最初の手の後に色を交換できる
    .name = パイルール
opt-challenge-free_reply = inpHeXion: 黒の最初のディスクをどこにでも置ける
    .name = 自由応手
opt-challenge-neutral = inpHeXion: 中央に中立のディスク（奇数サイズ）
    .name = 中立ディスク
opt-challenge-tiles = EXXIT: タイルの枚数
    .name = タイル数
opt-challenge-expert = EXXIT: 最初の6枚のタイルをプレイヤーが置く
    .name = 上級
opt-challenge-rated = サーバーのレーティングに数える（既定：はい）
    .name = レーティング
opt-challenge-days_per_move = 一手ごとの持ち時間（既定：3日）。使い切ると負け
    .name = 一手の日数

cmd-play = ボットのわたしと、選んだ強さで対局します。
    .name = ボット対局
opt-play-game = どのゲームか
    .name = ゲーム
opt-play-level = わたしの強さ（既定：あなたのレーティングに最も近い強さ）
    .name = 強さ
opt-play-first = あなたが先手（既定：はい）
    .name = 先手
opt-play-size = inpHeXion: 盤のサイズ（標準は7）
    .name = サイズ
opt-play-pie = パイルール：後手は最初の手の後に色を交換できる
    .name = パイルール
opt-play-free_reply = inpHeXion: 黒の最初のディスクをどこにでも置ける
    .name = 自由応手
opt-play-neutral = inpHeXion: 中央に中立のディスク（奇数サイズ）
    .name = 中立ディスク
opt-play-tiles = EXXIT: タイルの枚数
    .name = タイル数
opt-play-expert = EXXIT: 最初の6枚のタイルをプレイヤーが置く
    .name = 上級
opt-play-coach = コーチ付き：ヒントボタンでよい手とその理由が見られる
    .name = コーチ

cmd-move = このチャンネルのあなたの対局で手を指します。
    .name = 着手
opt-move-move = あなたの手：候補から選んでください
    .name = 手
opt-move-game = どの対局か（ここに複数あるとき）
    .name = 対局
opt-move-if = 先の手を予約：相手の予想手（長い手順は「相手;自分;相手」）
    .name = もし

cmd-board = 対局の盤面を、現在または指定した手数の後で表示します。
    .name = 盤面
opt-board-game = どの対局か（番号。既定：ここでのあなたの対局）
    .name = 対局
opt-board-ply = この手数の後の局面を表示
    .name = 手数

cmd-resign = 対局を投了します（確認があります）。
    .name = 投了
opt-resign-game = どの対局か（ここに複数あるとき）
    .name = 対局

cmd-takeback = 相手が指す前に、自分の直前の手の取り消し（待った）を申し込みます。
    .name = 待った
opt-takeback-game = どの対局か（ここに複数あるとき）
    .name = 対局

cmd-calloff = 始まったばかりの対局の取りやめを提案します（結果なし、レーティング変動なし）。
    .name = 取りやめ
opt-calloff-game = どの対局か（ここに複数あるとき）
    .name = 対局

cmd-follow = 対局を観戦します（結果の際にメンションされます）。もう一度で解除。
    .name = 観戦
opt-follow-game = 盤面に表示される対局番号
    .name = 対局

cmd-note = 対局の非公開メモ（見られるのはあなただけ）：1行追加、または表示します。
    .name = メモ
opt-note-game = 対局番号
    .name = 対局
opt-note-text = メモに追加する1行（省略するとメモを表示）
    .name = 内容

cmd-games = このサーバーの進行中の対局（あなたのまたはメンバーの）と、あなたの受信箱へのリンクを表示します。
    .name = 対局一覧
opt-games-user = 誰の対局か（既定：あなた）
    .name = メンバー

cmd-turn = このサーバーであなたの手番の対局を、残り時間とともに一覧します。
    .name = 手番

cmd-leaderboard = ゲームごとのサーバーのレーティング表。
    .name = ランキング
opt-leaderboard-game = どのゲームか
    .name = ゲーム
opt-leaderboard-page = ページ（1ページ10人）
    .name = ページ

cmd-profile = このサーバーでのプレイヤーのレーティング、成績、最近の対局。
    .name = プロフィール
opt-profile-user = 誰のプロフィールか（既定：あなた）
    .name = メンバー

cmd-record = 対局の棋譜を添付します（`hexcord engine` の `load` で読めます）。
    .name = 棋譜
opt-record-game = 対局番号
    .name = 対局

cmd-replay = 対局をアニメーション画像で添付します。
    .name = 再生
opt-replay-game = 対局番号
    .name = 対局

cmd-analysis = 終局した対局をコンピューターが解析します（勝率と勝負の分かれ目）。
    .name = 解析
opt-analysis-game = 対局番号（終局した対局）
    .name = 対局

cmd-puzzle = パズル：非公開で解く、またはランキング。
    .name = パズル
cmd-puzzle-solve = あなたのパズルレーティングに近い、まだ挑戦していないパズルを非公開で解きます。
    .name = 解く
opt-puzzle-solve-game = どのゲームか（省略時：どちらでも）
    .name = ゲーム
cmd-puzzle-leaderboard = ここでパズルが得意なメンバー：レーティング、正解数、最長連続正解。
    .name = ランキング

cmd-settings = あなたの設定：手番の知らせ方とリマインダー。
    .name = 設定
opt-settings-notify = 手番（とリマインダー）の知らせ方
    .name = 通知
opt-settings-reminders = 一手の持ち時間が切れる前のリマインダー
    .name = リマインダー

cmd-vacation = 休暇を取ります：その日数の間、期限が止まります。
    .name = 休暇
opt-vacation-days = 日数
    .name = 日数

cmd-privacy = 保存されたあなたのデータの確認と削除。
    .name = プライバシー
cmd-privacy-show = hexcord が保存しているあなたのデータを表示します（あなたにだけ見えます）。
    .name = 表示
cmd-privacy-delete = hexcord が保存しているあなたのデータを削除します（確認あり）。
    .name = 削除

cmd-rules = ゲームのルールの要約と初期盤面。
    .name = ルール
opt-rules-game = どのゲームか
    .name = ゲーム

cmd-learn = 遊び方を学ぶ：レベルを一つずつ。
    .name = 入門
opt-learn-game = どのゲームか（省略時：どちらかの次のレベル）
    .name = ゲーム

cmd-help = このボットでの遊び方。
    .name = ヘルプ

cmd-abort = モデレーター：このサーバーの対局を結果なしで終了します。
    .name = 中止
opt-abort-game = 対局番号
    .name = 対局

cmd-server = モデレーター：このサーバーの設定（スレッド、言語、大会、時間、画像）。
    .name = サーバー
opt-server-threads = 新しい対局ごとにスレッドを作る（既定：オン）
    .name = スレッド
opt-server-language = ここでのボットの公開メッセージの言語
    .name = 言語
opt-server-tournaments = 誰でも大会を作成できる（既定：オフ、サーバーかイベントの管理者のみ）
    .name = 大会作成
opt-server-theme = 盤面・順位表・グラフの配色（既定：ダーク）
    .name = 配色
cmd-daily_puzzle = モデレーター：毎日ここにパズル。
    .name = 今日のパズル
opt-daily_puzzle-hour = 投稿する時刻（サーバーのタイムゾーン、0〜23時）
    .name = 時刻
opt-daily_puzzle-stop = 今日のパズルを止める
    .name = 停止

## 選択肢

choice-game-0 = inpHeXion
choice-game-1 = EXXIT（エクシット）
choice-tiles-0 = 39枚（標準）
choice-tiles-1 = 29枚（ブリッツ）
choice-tiles-2 = 19枚（初心者）
choice-level-0 = とてもやさしい
choice-level-1 = やさしい
choice-level-2 = ふつう
choice-level-3 = つよい
choice-days_per_move-0 = 1日
choice-days_per_move-1 = 3日（既定）
choice-days_per_move-2 = 7日
choice-days_per_move-3 = 14日
choice-notify-0 = 対局のチャンネルでメンションする
choice-notify-1 = 盤面付きのダイレクトメッセージを送る
choice-notify-2 = 両方
choice-reminders-0 = オン
choice-reminders-1 = オフ
choice-threads-0 = オン
choice-threads-1 = オフ
choice-theme-0 = ダーク
choice-theme-1 = ライト

## ヘルプ

help-head = **hexcord** — ここで inpHeXion と EXXIT が遊べます。手番が来たら盤面の下の **指す** を押してください。合法手を一段階ずつ組み立てます。

## 応答

answer-server-only = このコマンドはサーバーで使えます。ダイレクトメッセージでは使えません。
answer-no-such-game = このサーバーに対局 #{ $game } はありません。
answer-thread-of-game = このスレッドは対局 #{ $game } のものです。新しい対局は <#{ $channel }> で始めてください。
answer-game-elsewhere = 対局 #{ $game } はこのサーバーの対局ではありません。<#{ $channel }> でコマンドを使ってください。
answer-your-opponent = 相手
answer-suggest-waiting = あなたの手番ではありません：対局 #{ $game } は { $name } の手番です。あなたの番になったらお知らせします。
answer-suggest-game = #{ $game } { $title }、{ $move }手目{ $mine ->
    [yes] 、あなたの手番
   *[no] {""}
}
answer-suggest-finished = #{ $game } { $title }、{ $moves }手、{ $state }
answer-active = 進行中
answer-suggest-you = あなた
answer-time-left = 残り { $left }
answer-and-more = …ほか { $count }件。
answer-board-link = [盤面]({ $url })
answer-played-in = <#{ $channel }> で対局中
answer-ply-range = 対局 #{ $game } は { $moves }手です。`{ opt-board-ply.name }` は 0 から { $moves } の間で選んでください（指定：{ $asked }）。
answer-showing-move = { $moves }手中 { $ply }手目の後の局面です。
answer-no-games = { $who } はここで進行中の対局がありません。`/{ cmd-challenge.name }` で誰かに申し込みましょう！
answer-delivery-fault = ⚠️ この対局の盤面を投稿できません：{ $fault }
answer-games-head = { $who } の進行中の対局：
answer-games-line = • #{ $game } **{ $title }** { $first } 対 { $second } · { $move }手目 · { $to_move } の手番
answer-turn-head = あなたの手番の対局：
answer-turn-line = • #{ $game } **{ $title }** 対 { $opponent }（<#{ $channel }>）· { $move }手目
answer-turn-none = ここであなたの手番の対局はありません。進行中の対局は `/{ cmd-games.name }` で見られます。
answer-record = 対局 #{ $game } の棋譜（{ $moves }手）：1行目がバリエーション、その後は1行に1手です。`hexcord engine`（`load`）で読み込むか、`hexcord render` で描画できます。
answer-replay = 対局 #{ $game } の一手ごとの再生です。
notes-added = 対局 #{ $game } のメモに追加しました。見られるのはあなただけです（{ $max }文字中 { $chars }文字使用）。内容を省いた `/{ cmd-note.name }` でメモを表示し、終局後は `/{ cmd-record.name }` で棋譜と一緒に受け取れます。
notes-shown = 対局 #{ $game } のあなたの非公開メモ（見られるのはあなただけです）：
    >>> { $notes }
notes-none = 対局 #{ $game } のメモはありません。
notes-blank = 対局 #{ $game } のメモに追加する内容が空です。
notes-too-long = 保存しませんでした：対局 #{ $game } のメモが{ $chars }文字になり、上限の{ $max }文字を超えます。短くしてください（対局ページではメモ全体を編集できます）。
notes-not-yours = { $place ->
    [chat] 対局 #{ $game } のメモを残せるのは、その対局者だけです。
   *[server] 対局 #{ $game } のメモを残せるのは、その対局者と観戦者（`/{ cmd-follow.name }`）だけです。
}
answer-replay-too-large = 対局 #{ $game } の再生は大きすぎて添付できません（{ $size } MB）。棋譜は `/{ cmd-record.name }` で得られ、`hexcord render --replay` で描画できます。
answer-analysis = 📈 対局 #{ $game }（{ $title }、{ $first } 対 { $second }）の解析：グラフは一手ごとの双方の勝率です。
answer-analysis-turning = • { $number }手目（{ $name }、{ $colour }）：**{ $played }**。勝率が{ $loss }%下がりました（{ $before }% → { $after }%）。推奨手：**{ $better }**。
answer-analysis-no-turning = 勝率を { $loss } % 以上下げた手はありません：はっきりした分かれ目のない対局でした。
answer-analysis-progress = 🔍 対局 #{ $game } を解析中：{ $total }局面中 { $done }局面を探索しました…
answer-analysis-in-play = 対局 #{ $game } はまだ対局中です。対局中の助けにならないよう、解析は終局した対局だけが対象です。
answer-analysis-empty = 対局 #{ $game } は一手も指されずに終わったため、解析するものがありません。
answer-challenge-the-bot = わたしと対局するには `/{ cmd-play.name }` で強さを選んでください。
answer-challenge = { $opponent }、{ $challenger } から **{ $options }** の対局の申し込みです。{ $rated ->
    [yes] レーティング対象
   *[no] レーティング対象外
}、{ $clock }。{ $challenger } が{ $colour }で先手です。
    下のボタンで受けるか断ってください（{ $hours }時間有効）。
answer-bot-game = わたしとの対局 #{ $game }（強さ：**{ $level }**、{ $title }でのレーティング{ $strength }{ $chosen ->
    [yes] 、あなたのレーティング{ $yours }に最も近い強さ
   *[no] {""}
}）を始めます。盤面は{ $thread ->
    [yes] このチャンネルに作られるこの対局のスレッドに
   *[no] このチャンネルに
}投稿されます。
answer-not-your-turn = あなたの手番ではありません。番が来たらお知らせします。各対局の手番は `/{ cmd-games.name }` で確認できます。
answer-accept-takeback = 待ったを受ける
answer-decline = 断る
answer-call-it-off = 取りやめる
answer-play-on = 続ける
answer-resign = 投了する
answer-keep-playing = 対局を続ける
answer-really-resign = 本当に対局 #{ $game } を投了しますか？ 相手の勝ちになります。
answer-rating-line = { $place }. { $player } **{ $rating }**{ $provisional ->
    [yes] （暫定）
   *[no] {""}
} ±{ $deviation } · { $games }局（{ $wins }勝{ $losses }敗{ $draws }分）
answer-leaderboard-empty = このサーバーではまだ { $title } のレーティング対局が終わっていません。`/{ cmd-challenge.name }` で誰かに申し込みましょう！
answer-leaderboard-title = { $title } ランキング
answer-leaderboard-footer = { $pages }ページ中 { $page }ページ目 · Glicko-2 レーティング ± 偏差 · 暫定：偏差 { $provisional } 超 · 勝–敗–分
answer-this-member = このメンバー
answer-profile-unrated = { $who } はここでまだレーティング対局がありません。
answer-profile-learn = 遊び方を学ぶ
answer-profile-learn-line = { $game }：{ $total }レベル中{ $done }レベル、★{ $stars }/{ $most }
answer-profile-rating = **{ $rating }** ±{ $deviation }{ $provisional ->
    [yes] （暫定）
   *[no] {""}
}
    { $games }局：{ $wins }勝 { $losses }敗 { $draws }分
answer-profile-bot = わたしとの対局
answer-profile-bot-line = { $title }・{ $level }（レーティング{ $strength }）：{ $wins }勝 { $losses }敗{ $draws ->
    [0] {""}
   *[other] {" "}{ $draws }分
}
answer-recent-games = 最近の対局
answer-recent-line = #{ $game } { $title } 対 { $opponent }: { $verdict ->
    [won] 勝ち
    [lost] 負け
   *[drew] 引き分け
}（{ $result }）{ $rated ->
    [yes] {""}
   *[no] 、レーティング対象外
}
answer-aborted = 対局 #{ $game } を中止しました。お知らせはその対局のチャンネルに続きます。
answer-moderators-only = 設定を変更できるのは、サーバー管理の権限を持つメンバーだけです。
answer-threads-on = スレッド：**オン**。新しい対局はそれぞれ申し込みから作られる専用のスレッドで行われます。結果はここにも1行で投稿され、対局が終わるとスレッドはアーカイブされます。
answer-threads-off = スレッド：**オフ**。新しい対局は申し込まれたチャンネルで行われます。
answer-language-state = 公開メッセージの言語：**{ $language }**{ $chosen ->
    [auto] （Discord のサーバーの言語）
   *[set] {""}
}。
answer-theme-state = 画像の配色：{ $theme ->
    [light] **ライト**（明るいチャット背景向け）
   *[dark] **ダーク**（暗いチャット背景向け）
}。変更は `/{ cmd-server.name } { opt-server-theme.name }` で。
answer-server-saved = 保存しました。{ $state }すでに始まった対局はそのままです。
    { $language }
    { $tournaments }
answer-server-change = { $state }
    { $language }
    { $tournaments }
    変更は `/{ cmd-server.name } { opt-server-threads.name }`、`/{ cmd-server.name } { opt-server-language.name }`、`/{ cmd-server.name } { opt-server-tournaments.name }` で。
answer-language-name = 日本語
answer-language-auto = 自動（Discord のサーバーの言語）
answer-language-unknown = `{ $value }` という言語は使えません。次から選んでください：{ $known }。
answer-notify-channel = 対局のチャンネルでのメンション
answer-notify-dm = 盤面と **指す** ボタン付きのダイレクトメッセージ（送れないときは対局のチャンネルでのメンション）
answer-notify-both = 対局のチャンネルでのメンションと、盤面付きのダイレクトメッセージ
answer-reminders-on = リマインダー：同じ方法で、一手の持ち時間が半分になったときと、終わり間際にもう一度。
answer-reminders-off = リマインダー：オフ。期限は変わらず適用されます（`/{ cmd-turn.name }` で確認できます）。
answer-settings = 手番の知らせ：{ $told }。
    { $reminded }
answer-settings-saved = 保存しました。{ $settings }
answer-settings-change = { $settings }
    変更は `/{ cmd-settings.name } { opt-settings-notify.name }` と `/{ cmd-settings.name } { opt-settings-reminders.name }` で。
answer-vacation = よい休暇を！ <t:{ $until }:f> まで期限が止まります（あなたの手番を待つ { $paused }局の期限が { $days }日延びました）。今後365日で残っている休暇日数：{ $left }。{ $seeks ->
    [0] {""}
   *[other] 休暇中に対局が始まると持ち時間が減るため、出していた相手探し（{ $seeks }件）を取り下げました。
}

privacy-head = **hexcord が保存しているあなたのデータ**（あなたにだけ見えます）：
privacy-nothing = hexcord はあなたについて何も保存していません。
privacy-name = • 最後に確認した表示名：**{ $name }**
privacy-locale = • 最後に確認した Discord の言語：{ $locale }
privacy-games = • 対局：{ $total }局（進行中 { $playing }局、終了 { $over }局）
privacy-rating = • サーバー { $server } の { $game } のレーティング：{ $rating }（{ $games }局）
privacy-time-zone = • タイムゾーン：{ $zone }
privacy-table-player_settings = • あなたの設定（通知、リマインダー、タイムゾーン、ダイジェスト）
privacy-table-vacations = • 休暇：{ $count }件
privacy-table-followers = • フォロー中の対局：{ $count }局
privacy-table-web_tokens = • 盤面への個人用リンク：{ $count }件
privacy-table-inbox_tokens = • 受信箱への個人用リンク：{ $count }件
privacy-table-game_notes = • 非公開メモを残した対局：{ $count }局
privacy-table-conditional_moves = • 予約手のある対局：{ $count }局
privacy-table-daily_puzzles = • あなたが設定したサーバーの今日のパズル（削除すると止まります）：{ $count }
privacy-table-moves = • あなたが指した手：{ $count }手
privacy-table-takebacks = • 待ったをした手：{ $count }手
privacy-table-game_pauses = • 申し込んだ中断：{ $count }件
privacy-table-challenges = • 送った・受けた挑戦：{ $count }件
privacy-table-tournaments = • 作成した・優勝した大会：{ $count }件
privacy-table-tournament_players = • 大会への参加：{ $count }件
privacy-table-tournament_pairings = • 大会の組み合わせ：{ $count }件
privacy-table-puzzle_attempts = • 挑戦したパズル：{ $count }問
privacy-table-puzzle_ratings = • パズルのレーティング：{ $count }件
privacy-table-learn_progress = • クリアしたコースのレベル：{ $count }件
privacy-table-learn_attempts = • プレイ中のコースのレベル：{ $count }件
privacy-table-puzzles = • あなたの対局から作られたパズル（あなたの名前入り）：{ $count }問
privacy-table-announcements = • ボットが送ったダイレクトメッセージ：{ $count }件
privacy-foot = `/{ cmd-privacy.name } { cmd-privacy-delete.name }` で、レーティング、パズルのレーティングと挑戦記録、コースの進み具合、設定、休暇、リンク、フォロー、メモ、予約手、あなたが設定した今日のパズル、名前を削除できます。対局と大会の結果、あなたの対局から作られたパズルはほかの人のために残り、あなたは「{ former-member }」（パズルでは「{ puzzle-anonymous }」）と表示されます。
privacy-confirm = レーティング、パズルのレーティングと挑戦記録、コースの進み具合、設定、休暇、個人用リンク、フォロー、非公開メモ、予約手、あなたが設定した今日のパズル、名前を削除します。対局と大会の結果、あなたの対局から作られたパズルはほかの人のために残り、あなたは「{ former-member }」（パズルでは「{ puzzle-anonymous }」）と表示されます。元には戻せません。{ $minutes }分以内に確認してください：
privacy-blocked-games = 何も削除していません。先に進行中の対局（{ $games }）を終えるか投了してください。
privacy-blocked-tournaments = 何も削除していません。先に次の大会から抜けるか棄権してください：{ $tournaments }。
privacy-deleted = 完了：あなたのデータを削除しました（{ $rows }件）。過去の対局ではあなたは「{ former-member }」と表示されます。再び hexcord を使うと、その時から名前がまた保存されます。
privacy-confirm-stale = この確認は期限切れです。何も削除していません。`/{ cmd-privacy.name } { cmd-privacy-delete.name }` でもう一度どうぞ。
privacy-not-yours = この確認は別のメンバーのものです。何も削除していません。

cmd-tournament = 大会：スイス式または総当たり。
    .name = 大会
cmd-tournament-create = 大会を作成します。メンバーはボタンで参加します。
    .name = 作成
opt-tournament-create-name = 大会名
    .name = 大会名
opt-tournament-create-format = スイス式（ラウンド数を選ぶ）または総当たり（全員と対局）
    .name = 方式
opt-tournament-create-rounds = スイス式：ラウンド数
    .name = ラウンド数
opt-tournament-create-max_players = 参加できる最大人数（既定：制限なし）
    .name = 定員
opt-tournament-create-signup_hours = 今から何時間後に自動で始めるか（既定：主催者が開始）
    .name = 受付時間
opt-tournament-create-game = どのゲームか
    .name = ゲーム
opt-tournament-create-days_per_move = 一手ごとの持ち時間（既定：3日）。使い切ると負け
    .name = 一手の日数
opt-tournament-create-rated = サーバーのレーティングに数える（既定：はい）
    .name = レーティング
opt-tournament-create-size = inpHeXion: 盤のサイズ（標準は7）
    .name = サイズ
opt-tournament-create-pie = パイルール：後手は最初の手の後に色を交換できる
    .name = パイルール
opt-tournament-create-free_reply = inpHeXion: 黒の最初のディスクをどこにでも置ける
    .name = 自由応手
opt-tournament-create-neutral = inpHeXion: 中央に中立のディスク（奇数サイズ）
    .name = 中立ディスク
opt-tournament-create-tiles = EXXIT: タイルの枚数
    .name = タイル数
opt-tournament-create-expert = EXXIT: 最初の6枚のタイルをプレイヤーが置く
    .name = 上級
cmd-tournament-join = このサーバーの大会に参加します（既定：受付中の最新の大会）。
    .name = 参加
opt-tournament-join-tournament = 大会の番号（既定：ここで最新の大会）
    .name = 大会
cmd-tournament-leave = 始まる前の大会への参加を取りやめます。
    .name = 取りやめ
opt-tournament-leave-tournament = 大会の番号（既定：ここで最新の大会）
    .name = 大会
cmd-tournament-start = 大会を今すぐ開始します（主催者、またはサーバーかイベントの管理者）。
    .name = 開始
opt-tournament-start-tournament = 大会の番号（既定：ここで最新の大会）
    .name = 大会
cmd-tournament-withdraw = 進行中の大会を棄権します。対局中の対局は投了になります。
    .name = 棄権
opt-tournament-withdraw-tournament = 大会の番号（既定：ここで最新の大会）
    .name = 大会
cmd-tournament-standings = 大会の順位表を画像と文章で表示します。
    .name = 順位
opt-tournament-standings-tournament = 大会の番号（既定：ここで最新の大会）
    .name = 大会
cmd-tournament-export = 大会を FIDE の TRF ファイルで書き出します（連盟や他の組み合わせソフト向け）。
    .name = 書き出し
opt-tournament-export-tournament = 大会の番号（既定：ここで最新の大会）
    .name = 大会
cmd-tournament-cancel = 主催者：大会を中止します。対局中の対局は結果なしで終わります。
    .name = 中止
opt-tournament-cancel-tournament = 大会の番号（既定：ここで最新の大会）
    .name = 大会
cmd-tournament-pause = 主催者：大会の次のラウンドを一時停止します（進行中の対局は続きます）。
    .name = 一時停止
opt-tournament-pause-tournament = 大会の番号（既定：ここで最新の大会）
    .name = 大会
cmd-tournament-resume = 主催者：一時停止した大会を再開します。次のラウンドは予定どおり組まれます。
    .name = 再開
opt-tournament-resume-tournament = 大会の番号（既定：ここで最新の大会）
    .name = 大会
cmd-tournament-remove = 主催者：進行中の大会から参加者を除外します（棄権扱い）。
    .name = 除外
opt-tournament-remove-player = 除外する参加者
    .name = 参加者
opt-tournament-remove-tournament = 大会の番号（既定：ここで最新の大会）
    .name = 大会
cmd-tournament-correct = 主催者：決着した大会の対局の結果を訂正します。順位表にも反映されます。
    .name = 結果訂正
opt-tournament-correct-game = 対局の番号（そのラウンドの組み合わせに出ている番号）
    .name = 対局
opt-tournament-correct-result = 正しい結果（先に書かれた対局者から）
    .name = 結果
choice-format-0 = スイス式
choice-format-1 = 総当たり
choice-format-2 = 二回総当たり
choice-result-0 = 先手勝ち（1–0）
choice-result-1 = 後手勝ち（0–1）
choice-result-2 = 引き分け（½–½）
choice-result-3 = 先手の不戦勝（1–0）
choice-result-4 = 後手の不戦勝（0–1）
answer-tournament-started = 大会 #{ $id } が始まりました。組み合わせはそのチャンネルに続きます。
answer-tournaments-open = ここでは誰でも大会を作成できます。
answer-tournaments-managers = 大会を作成できるのはサーバーかイベントの管理者です。
choice-tournaments-0 = オン
choice-tournaments-1 = オフ

# アクティビティの起動コマンド（アクティビティが有効なときに登録）。
entry-point = Discord の中で盤を開きます（ここの対局、またはあなたの手番の対局）。
    .name = 盤を開く

## パズル

puzzle-new = 🧩 新しいパズルです（各パズルは最初の挑戦だけが数えられます）：
puzzle-resumed = 🧩 途中のパズルです。続きからどうぞ：
puzzle-title = **パズル #{ $id }** · { $game } { $variant } · 難易度 { $difficulty }/5 · { $source }
puzzle-from-game = { $a } 対 { $b } の対局、{ $number }手目から
puzzle-from-starter = 初期セットから
puzzle-anonymous = 匿名
puzzle-you = あなた
puzzle-to-move = **{ $colour }の手番**：唯一の好手を見つけてください{ $moves ->
    [1] {""}
   *[other] （見つける手は{ $moves }手、相手の応手は私が指します）
}。
puzzle-right = ✅ 正解：**{ $words }**。私の応手：{ $replies }。もう一度あなたの番です。
puzzle-solved = ✅ パズル #{ $id } を **{ $words }** で**正解**！{ $rating }
puzzle-failed = ❌ 残念：**{ $words }** では形勢を保てません。正解の手順：{ $line }。パズル #{ $id } は不正解になりました。{ $rating }
puzzle-rating-change = パズルレーティング { $before } → **{ $after }**（{ $change }）· 連続正解 { $streak }（最長 { $best }）。
puzzle-none-left = ここのパズルはすべて挑戦済みです。`/{ cmd-analysis.name }` で解析した対局から新しいパズルが加わります。
puzzle-none-left-of = ここの{ $game }のパズルはすべて挑戦済みです。`/{ cmd-analysis.name }` で解析した対局から新しいパズルが加わります。
puzzle-gone = このパズルはもう表示できません。何も数えていません。`/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` で別のパズルをどうぞ。
puzzle-not-yours = これは他のメンバーのパズルです。`/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` であなたのパズルをどうぞ。
puzzle-over = このパズルはもう終わっています（数えられるのは最初の挑戦だけです）。`/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` で次のパズルをどうぞ。
puzzle-stale = この選択肢はパズルの前の段階のものなので、何も指していません。`/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` で今の局面を表示します。
puzzle-leaderboard-title = パズルランキング
puzzle-leaderboard-line = { $place }. { $player } **{ $rating }** · 正解 { $solved }、不正解 { $failed } · 最長連続正解 { $best }
puzzle-leaderboard-empty = ここではまだ誰もパズルを解いていません。`/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` をどうぞ。
daily-puzzle-here = 🧩 このチャンネルに毎日 { $hour }:00（{ $zone }）に今日のパズルを出します。
daily-puzzle-saved = 保存しました：今日のパズルは毎日 { $hour }:00（{ $zone }。`/{ cmd-server.name }` で変更できます）に <#{ $channel }> に出ます。
daily-puzzle-state = 今日のパズルは毎日 { $hour }:00（{ $zone }）に <#{ $channel }> に出ます。モデレーターは出したいチャンネルで `/{ cmd-daily_puzzle.name } { opt-daily_puzzle-hour.name }` を使って変更、`/{ cmd-daily_puzzle.name } { opt-daily_puzzle-stop.name }` で停止できます。
daily-puzzle-unset = このサーバーには今日のパズルがありません。モデレーターは出したいチャンネルで `/{ cmd-daily_puzzle.name } { opt-daily_puzzle-hour.name }` を使って始められます。
daily-puzzle-stopped = 停止しました：もう今日のパズルは出ません。これまでに出したパズルが再び出ることはありません。
daily-puzzle-cannot-post = 何も保存していません：{ $why }
daily-puzzle-try-again = Discord から応答がありませんでした。少し待ってからもう一度試してください
