// The rules page, for players: the seed's rules as takuge plays them (docs/games/art-heist.md
// has every decision and the Japanese it resolves).
export const rules = {
  ja: `
<h2>美術品コレクターと泥棒(オークション会場と城・5人用)</h2>
<p>必ず5人で遊びます。美術品を集めて城で展示し、自分のコマをいちばん前に進めたプレイヤーの勝ちです。同点なら最後の展示の強さで順位を決めます。</p>
<h3>準備</h3>
<ul>
<li>各プレイヤーは色(赤・青・緑・紫・白)をランダムに受け取り、その色の「1」のカード(オークション会場/城)と「2」のカード8枚を持ちます: お金4枚、泥棒2枚、探偵1枚、展示1枚。</li>
<li>美術品を4枚ずつ配ります(手札は秘密)。残りは2つのヤマに分け、それぞれ1番上を表向きにします。</li>
<li>美術品にはアルファベット(A〜F)と年代があり、古いほど強いカードです。</li>
</ul>
<h3>1ターンの流れ</h3>
<ol>
<li><b>「1」のカード</b>: 全員が秘密裏にオークション会場か城を選び、全員が選んだら公開します。</li>
<li><b>オークション会場</b>: そこにいるプレイヤーが秘密裏に「2」のカードを1枚出します。いちばん高いお金を出したプレイヤーが、どちらかのヤマの表向きの美術品を落札し、お金は金庫に入ります。落札できなかったお金は手札に戻ります。泥棒が1枚だけ出ていれば、その泥棒が落札のお金を盗んで自分の手札にします(泥棒が2枚以上なら相殺)。</li>
<li><b>城</b>: 続いて城のプレイヤーが秘密裏に「2」のカードを出し、展示 → 泥棒 → 探偵 の順に処理します。
<ul>
<li><b>展示</b>: 展示を出したプレイヤーは、アルファベットが繋がった美術品を3枚以上、同時に公開します(AAA・AAB・ABCは可、AAC・ABDは不可)。先頭のコマの横の城の数字だけ、1位と2位が進みます。枚数が多い方が上位、同じなら最も古いカードで比べます。展示できなかったプレイヤーは、順位のマイナス分後退し(1位は5マス)、次のターンは1回休みです。</li>
<li><b>泥棒</b>: 泥棒は展示品からそれぞれ1枚ずつ盗みます。数字の大きい泥棒から選びます。</li>
<li><b>探偵</b>: 城に泥棒がいれば捕まえ、探偵を出したプレイヤーは自分の順位の数だけ進みます(5位なら5マス)。捕まった泥棒は檻に入り、溢れた泥棒は持ち主に戻ります。</li>
</ul></li>
<li>その場所で使えないカード(城でのお金など)を出したら、そのターンはミスです。</li>
<li>美術品のヤマが両方なくなったら、全員が城でプレイします。</li>
</ol>
<h3>カードと城の数字(takugeの標準)</h3>
<ul>
<li>お金(千): 赤 3・10・15・22、青 4・11・14・21、緑 5・12・13・20、紫 6・8・17・19、白 7・9・16・18(各色合計5万、同じ額はないので同値はありません)。</li>
<li>泥棒の数字: 赤 1・10、青 2・9、緑 3・8、紫 4・7、白 5・6。</li>
<li>美術品: A〜F の45枚(A 7、B〜D 各8、E・F 各7)、すべて年代が違います。</li>
<li>城の数字(先頭のコマの位置 → 1位|2位): 0〜4マス 5|3、5〜6 5|2、7〜16 4|2、17〜20 3|2、21〜27 3|1、28以降 2|1。</li>
<li>城のプレイヤーはオークションの結果を見てから「2」のカードを選びます。最後の展示では、展示しなくても後退はありません。</li>
</ul>
<h3>ゲームの終了</h3>
<p>誰かのコマがゴール(30マス)に着いたら、そのターンの後に全員で最後の展示を行います。1位は8マス、2位は4マス進み、最も前にいるプレイヤーの勝ちです。80ターンで終わらなければ、そこで最後の展示を行います。</p>
<h3>この画面での遊び方</h3>
<p>場所・カード・ヤマ・展示品をクリックして選びます。展示は手札の美術品をクリックして組み立て、「展示する」で出します。選ぶ前ならいつでも選び直せます。他のプレイヤーが「選択済み」かどうかは見えますが、何を選んだかは公開まで見えません。</p>
<p>オプション(バリアント)はありません。</p>
`,
  en: `
<h2>Collectors &amp; Thieves: Auction and Castle (5 players)</h2>
<p>Always five players. Collect art, show it at the castle and move your pawn ahead: the pawn farthest ahead at the end wins; a tie goes to the stronger final exhibit.</p>
<h3>Setup</h3>
<ul>
<li>Each player draws a colour (red, blue, green, purple, white) and takes that colour's place card (auction house / castle) and eight action cards: four cheques, two thieves, a detective and an exhibition card.</li>
<li>Everyone is dealt 4 art cards, kept secret. The rest form two piles, each with its top card face up.</li>
<li>Art cards carry a letter (A–F) and a year; the older card is stronger.</li>
</ul>
<h3>A turn</h3>
<ol>
<li><b>Place</b>: everyone secretly picks the auction house or the castle; the places are revealed together.</li>
<li><b>Auction house</b>: the players there secretly play one action card. The highest cheque buys the face-up art of either pile; that cheque goes to the safe, the other cheques go back to hand. If exactly one thief was played, it steals the winning cheque into its owner's hand (two or more thieves cancel out).</li>
<li><b>Castle</b>: then the castle players secretly play one action card, resolved exhibit → thief → detective:
<ul>
<li><b>Exhibit</b>: each exhibitor secretly lays out 3 or more art cards whose letters connect (AAA, AAB, ABC yes; AAC, ABD no); all are revealed together. The castle beside the leading pawn says how far 1st and 2nd move. More cards rank higher, then the oldest card. A player who shows no valid exhibit moves back (1st place on the track 5 spaces, 5th place 1) and skips the next turn.</li>
<li><b>Thief</b>: each thief steals one card from every exhibit, highest thief number first.</li>
<li><b>Detective</b>: if thieves came to the castle, they are caught, and each detective's player moves forward by their rank (5th place: 5 spaces). Caught thieves go into the cage; one pushed out returns to its owner.</li>
</ul></li>
<li>A card with no use where it is played (a cheque at the castle…) is a wasted turn.</li>
<li>When both art piles are empty, everyone plays at the castle.</li>
</ol>
<h3>Cards and castle numbers (takuge's defaults)</h3>
<ul>
<li>Cheques (thousands): red 3, 10, 15, 22 · blue 4, 11, 14, 21 · green 5, 12, 13, 20 · purple 6, 8, 17, 19 · white 7, 9, 16, 18 (50,000 each; no value repeats, so bids never tie).</li>
<li>Thief numbers: red 1, 10 · blue 2, 9 · green 3, 8 · purple 4, 7 · white 5, 6.</li>
<li>Art: 45 cards A–F (A 7, B–D 8 each, E and F 7 each), every year different.</li>
<li>Castle numbers (by the leading pawn's space → 1st | 2nd): spaces 0–4 5|3, 5–6 5|2, 7–16 4|2, 17–20 3|2, 21–27 3|1, 28 and beyond 2|1.</li>
<li>Castle players choose their action card after seeing how the auction went. Showing no final exhibit carries no penalty.</li>
</ul>
<h3>The end</h3>
<p>After the turn in which a pawn reaches the goal (space 30), everyone shows a final exhibit: 1st moves 8, 2nd moves 4. The farthest pawn wins. If no pawn has reached the goal after 80 turns, the final exhibit is held then.</p>
<h3>Playing here</h3>
<p>Click the place, your card, a pile or the exhibit you rob. Build an exhibit by clicking art in your hand, then “Exhibit”. Until you send it you can always choose again. You see who has chosen, never what, until the reveal.</p>
<p>The game has no options (variants).</p>
`,
};
