# 遊び方を学ぶ（/learn）のテキスト。ステージの題は learn-<game>-<stage>、レベルの目標は
# learn-<game>-<level>-goal、名前のある悪手の説明は learn-<game>-<level>-<why>
# （assets/learn/<game>.json）。

## 着手への答え
learn-illegal = その手はルール上できません：{ $rule }
learn-bad-notation = このゲームの手ではありません。
learn-missed = その手は指せますが、目標には届きません。レベルを最初からやり直します。目標：{ $goal }
learn-missed-lost = その手では負けてしまいます。レベルを最初からやり直します。目標：{ $goal }

## ルールが禁じる手の説明（理由が示すルール）。
learn-rule-i1 = そのマスは盤上にありません。
learn-rule-i4 = 手元にディスクが残っていません。
learn-rule-i5 = 白の最初の手は好きなマスにディスクを1枚置く手です。手元からディスクを置けるのはこの手だけです。
learn-rule-i6 = 手番では相手のディスク（自分のものは不可）を1枚、空いている隣のマスへ1歩押し出し、それがいたマスに自分のディスクを置きます。
learn-rule-i7 = 色の交換は、パイルールで白の最初のディスクに黒が答えるときだけできます。
learn-rule-i8 = 自由応手では、黒の最初のディスクを空いているマスに置きます。
learn-rule-i10 = 新たに自分のディスクで囲んだ相手のディスクは、すべて別々の空きマスへ移さなければなりません。
learn-rule-i15 = 中立ディスクがあるとき、白の最初の手は中立ディスクを押し出す手です。
learn-rule-i16 = 自分の2辺をつないだ手でゲームはすぐに終わり、何も移しません。
learn-rule-i18 = 合法手のないプレイヤーの負けです。
learn-rule-x3 = スタックは一番上のディスクの持ち主のものです。
learn-rule-x7 = 上級者同士の初期配置では、自分の色のタイルを1枚ずつ置きます。最初は 0,0 に、その後はタイルの隣に置きます。
learn-rule-x8 = 色の交換は、パイルールで銀の最初の手に赤が答えるときだけできます。
learn-rule-x10 = 破壊ダンスが可能なら必ず行わなければならず、外宇宙にディスクを落とせる破壊ダンスがあればその中から選びます。
learn-rule-x12 = 破壊ダンスでは、タイルの上にある自分のスタックを直線上に動かします。
learn-rule-x13 = 破壊ダンスは、自分のスタックより高くない相手のスタックに着地しなければなりません。相手のスタックまでの距離は自分のスタックの高さ以内で、途中は空いているタイルだけです。
learn-rule-x16 = 世界の拡張では、2枚以上のタイルに隣接した外宇宙のスタックをタイルに置き換えます。
learn-rule-x17 = ディスクは手元から空いているタイルの上に置きます。
learn-rule-x18 = パスできるのは、破壊ダンスも世界の構築もできないときだけです。
learn-rule-x19 = ゲームは終わっています。

## inpHeXion
learn-inphexion-goal = ディスクの配置と勝ち方
learn-inphexion-first-disc-goal = 白が先手で、好きなマスにディスクを1枚置きます。中央のディスクはどの辺にも早く届きます。最初のディスクを中央の c3 に置きましょう。
learn-inphexion-first-disc-corner = 隅の a1 のディスクは2マスにしか接しておらず、下辺からも遠いです。中央の c3 に置いてみましょう。
learn-inphexion-white-connects-goal = 白は、接したディスクの連なりで上辺と下辺をつなげば勝ちです。白の道を黒のディスクが1枚ふさいでいます。この手で勝ちましょう。
learn-inphexion-black-connects-goal = あなたは黒です。黒は左辺と右辺をつなぎます。白のディスク1枚があなたの列を切っています。この手で勝ちましょう。
learn-inphexion-push = 押し出し
learn-inphexion-first-push-goal = 最初のディスクの後は、どの手番も押し出しです。相手のディスクを1枚、空いている隣のマスへ1歩押し出し、それがいたマスに自分のディスクを置きます。白のディスクを押し出しましょう。
learn-inphexion-to-the-edge-goal = 動かすのはいつも相手のディスクで、自分の新しいディスクは相手のディスクがいたマスに置かれます。c1 の黒のディスクを押し出して、あなたのディスクを上辺に置きましょう。
learn-inphexion-to-the-edge-own = c3 のディスクはあなたのものです。手番で動かすのは相手のディスクで、自分のディスクは動かせません。
learn-inphexion-stuck-goal = 空いている隣のマスがないディスクは動かせません。動かせる黒のディスクを押し出しましょう。
learn-inphexion-stuck-stuck = a1 のディスクには空いている隣のマスがないので、動かせません。
learn-inphexion-relocate = 囲まれたディスクの移動
learn-inphexion-corner-goal = 隣のマスがすべて自分のディスク（盤の端も自分のものとみなします）になった相手のディスクは囲まれたことになり、好きな空きマスへ移せます。隅の a1 の黒のディスクを囲みましょう。
learn-inphexion-pair-goal = 互いに接している相手のディスク2枚は、隣に仲間がいるので囲まれません。囲める黒のディスクを見つけて移しましょう。
learn-inphexion-pair-pair = a1 と b1 の黒のディスクは互いに接しているので、どちらも囲まれていません。何も移せません。e5 のディスクを見てください。
learn-inphexion-connect = つなぐ
learn-inphexion-careful-goal = 相手のディスクを押し出したせいで相手の連なりが完成すると、相手の勝ちになります。黒に勝ちを渡さずに、白で勝ちましょう。
learn-inphexion-careful-their-chain = c2 を c3 へ押し出すと、黒の a3〜e3 の列のすき間が埋まります。黒の連なりが完成して黒の勝ちになります。
learn-inphexion-pie = パイルール
learn-inphexion-swap-centre-goal = パイルールでは、白の最初のディスクに対して黒は色を交換できます。ディスクはそのまま残り、あなたのものになります。白は強い中央を取りました。色を交換しましょう。
learn-inphexion-keep-corner-goal = 隅のディスクは弱く、色を交換するとその弱いディスクがあなたのものになります。色はそのままにして、白のディスクを押し出しましょう。
learn-inphexion-keep-corner-weak = 色を交換すると、隅の弱いディスクがあなたのものになります。色はそのままにして押し出しましょう。
learn-inphexion-free-reply = 自由応手と中立ディスク
learn-inphexion-free-reply-goal = 自由応手では、黒の最初の手番で押し出しの代わりに、空いている好きなマスにディスクを置けます。黒のディスクを置きましょう。
learn-inphexion-neutral-first-goal = 中立ディスクのルールでは、灰色のディスクが中央から始まります。誰のものでもなく、どの手番でも相手のディスクとして扱います。白の最初の手はこれを押し出す手です。中立ディスクを押し出しましょう。
learn-inphexion-neutral-first-neutral = 中立ディスクがあるとき、白は最初のディスクを置きません。最初の手は中立ディスクの押し出しです。
learn-inphexion-neutral-surround-goal = 中立ディスクは相手のディスクとして扱うので、囲めば移せます。a1 の中立ディスクを囲みましょう。
learn-inphexion-threats = 初めての脅し
learn-inphexion-block-goal = 黒は c3 のあなたのディスクを押し出して、a3〜e3 の列を完成させようとしています。黒がすぐには勝てなくなる手を指しましょう。
learn-inphexion-block-ignores = その手の後、黒は c3 のあなたのディスクを押し出して列を完成させます。先に黒の列を切りましょう。
learn-inphexion-win-first-goal = どちらもあと1手で勝てる局面で、あなたの番です。先に勝ちましょう。
learn-inphexion-win-first-win-first = それで黒の脅しは止まりますが、すぐに勝てる手がありました。c5 の黒のディスクを押し出しましょう。

## EXXIT
learn-exxit-discs = ディスクの配置
learn-exxit-first-disc-goal = 世界とは、並べられたタイルのことです。破壊ダンスができないときは世界を構築します。手元のディスクを空いているタイルの上に置きましょう（ディスクの配置）。銀のディスクを置きましょう。
learn-exxit-first-disc-no-tile = ディスクを置けるのは世界の空いているタイルの上だけで、2,0 にはタイルがありません。
learn-exxit-dance = 破壊ダンス
learn-exxit-first-dance-goal = 自分のスタックから直線上の相手のスタックにディスクを落とせるとき、破壊ダンスは必須です。自分のスタックを赤のスタックへ破壊ダンスさせましょう。
learn-exxit-first-dance-forced = 破壊ダンスが可能なので、必ず破壊ダンスをしなければなりません。ディスクは置けません。
learn-exxit-space = 外宇宙へ落ちるスタック
learn-exxit-into-space-goal = 破壊ダンスでは、スタックのディスクを下から順に1マスに1個ずつ落とします。直線が世界の外に出ると、残ったディスクはすべてまとめて外宇宙へ落ちます。このような破壊ダンスが最優先です。外宇宙へディスクを落とす破壊ダンスをしましょう。
learn-exxit-space-first-goal = 自分のスタックのうち2つが 0,-1 へ破壊ダンスできますが、外宇宙にディスクを落とすのは片方だけで、そちらが優先です。破壊ダンスをしましょう。
learn-exxit-space-first-first = その破壊ダンスでは外宇宙に何も落ちません。1,-1 のスタックなら落とせるので、そちらが優先です。
learn-exxit-tiles = タイルと連鎖
learn-exxit-first-tile-goal = 2枚以上のタイルに隣接した外宇宙のスタックは、自分の色のタイルに置き換えられます（世界の拡張）。取り除いたディスクは各々の持ち主に戻ります。タイルを置きましょう。
learn-exxit-chain-goal = 新しいタイルによって、外宇宙の別のスタックが2枚のタイルに隣接すると、それも連鎖してタイルになります。1手でタイルを2枚置きましょう。
learn-exxit-chain-one-tile = その手ではタイルは1枚だけです。1,0 のスタックなら連鎖で2枚目のタイルが置けます。
learn-exxit-islands = 島と得点
learn-exxit-join-goal = 自分の最も大きい島（隣接した自分の色のタイルのまとまり）は1枚2点、それ以外の島は1枚1点です。銀より得点が高くなる手を指しましょう。
learn-exxit-join-no-join = ディスクは得点になりません。島につながるタイルの方が価値があります。
learn-exxit-end = ゲームの終わり
learn-exxit-last-tiles-goal = 全てのタイルが世界の一部になるとゲームは終わり、得点の高い方の勝ちです。最後のタイルを置いて勝ちましょう。
learn-exxit-two-passes-goal = 破壊ダンスも世界の構築もできないプレイヤーはパスし、両方のプレイヤーが続けてパスするとゲームは終わります。銀がパスしたところで、あなたがリードしています。パスして勝ちましょう。
learn-exxit-expert = 上級者の初期配置
learn-exxit-first-setup-tile-goal = 上級者同士では世界は空から始まり、各自3枚ずつ交互に自分の色のタイルを置きます。最初のタイルは 0,0 です。最初のタイルを置きましょう。
learn-exxit-first-setup-tile-centre = 上級者の初期配置で最初のタイルを置くのは 0,0 です。
learn-exxit-tactics = 初めての戦術
learn-exxit-bait-goal = 銀は破壊ダンスが可能なら必ず行わなければなりません。銀の破壊ダンスでディスクが外宇宙へ落ちるところにディスクを置き、最後のタイルを自分で置いて勝ちましょう。2手まで指せます。

## Discord の /learn
learn-title = 📘 **{ $game }の入門** · ステージ{ $stage }/{ $stages }：{ $name } · レベル{ $level }/{ $levels }
learn-you-play = あなたは{ $colour }です。
learn-alt = 遊び方を学ぶ：{ $game }、{ $colour }の手番
learn-wrong = ❌ { $why }もう一度どうぞ。
learn-reply = ✅ あなた：{ $mine }。わたしの応手：{ $reply }。
learn-done = 🎉 **レベルクリア** { $stars } — { $words }
learn-stage-done = 🏁 ステージ「{ $name }」クリア。実戦で試してみましょう：`/{ cmd-play.name }` でわたしと対局（{ $game }、強さ「{ choice-level-0 }」）、`/{ cmd-puzzle.name } { cmd-puzzle-solve.name }` でパズル、`/{ cmd-challenge.name }` でメンバーと対局。
learn-course-done = 🎓 { $game } のコースのレベルをすべてクリアしました。
learn-button-next = 次のレベル
learn-resumed = 📘 プレイ中のレベルです。前回の続きから：
learn-gone = そのレベルはもうコースにありません。次のレベルをどうぞ。
learn-stale = このボタンは古くなっています。`/{ cmd-learn.name }` で今のレベルを表示します。
learn-not-yours = これはほかのメンバーのレベルです。`/{ cmd-learn.name }` であなたのレベルを開けます。
learn-all-done = コースのレベルをすべてクリアしました。おめでとうございます！
learn-all-done-of = { $game } のコースのレベルをすべてクリアしました。
