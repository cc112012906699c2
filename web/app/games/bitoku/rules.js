// The rules page for players, from docs/games/bitoku.md (the seed's round structure and
// scoring, and the project's decisions where the seed is silent). The component set —
// every printed effect, cost and point value — is takuge's own.
import components from './components.js';

// The solo titles from the component set (data/board.toml), so the page follows the data.
const titles = (lang) =>
  components.board.solo_titles
    .map((t) => `${t.score} ${lang === 'ja' ? t.name_ja : t.name_en}`)
    .join(lang === 'ja' ? '、' : ', ');

export const rules = {
  ja: `<div class="bk-rules">
<h2>美徳 — 遊び方</h2>
<p class="bk-rules-note">このサイトの美徳は、ルールの流れと得点計算は原作どおり、カード・タイルの効果や数値は<strong>takuge独自のコンポーネント</strong>で遊びます(原作の印刷内容は公開されていないため)。1〜4人。1人ではソロの相手「天狗」と遊びます。</p>
<h3>目的</h3>
<p>4年(ラウンド)の後の「覚醒」で得点を計算し、<strong>美徳点</strong>が最も高いプレイヤーの勝ちです。同点なら残りの資源が多い方が上位です。</p>
<h3>準備</h3>
<ul>
<li>各プレイヤー: ダイス3個(左から3・2・1、赤スペース)、5つの木霊トラックの始点に木霊、巡礼者3人が目覚め・8人が水晶エリアで眠り、蜻蛉タイル1枚、幻視カード1枚、初期妖怪カード5枚の山札、木材1・翡翠1・御守(+1)1。秘密の岩倉タイルを1枚(自分だけが見られます)。</li>
<li>盤: 5つの森の領域(居住地・木霊トラック・湖の財宝)、大精霊の住み家、4つの光の丘(それぞれ妖怪カード・美徳カード・丘の効果)、建物・水晶・御魂・蜻蛉タイルのリザーブ、美徳の道と鳥居A・B、表向きの岩倉タイル2枚。1〜2人では古代の建物が各領域に、2人では中立の木霊が各トラックの4マス目に置かれます。</li>
</ul>
<h3>1年の流れ</h3>
<dl>
<dt>春(森の目覚め)</dt>
<dd>手札が4枚になるまで妖怪カードを引き、手番順に1枚捨てて3枚にします。次に、自分の<strong>夢の水晶</strong>(紫)の効果を好きな順で得ます。</dd>
<dt>夏(守護者への呼びかけ)</dt>
<dd>手番順に1アクションずつ、全員がパスするまで続けます。
<ul>
<li><strong>A 妖怪を出す</strong>: 手札の妖怪を空いた妖怪スペースに出し、効果を得ます(任意)。そのスペースの右のダイスが赤スペースにあれば緑スペースへ(<strong>解放</strong>)。そのスペースに接する<strong>創造力の水晶</strong>(桃)が共鳴します。</li>
<li><strong>B ダイスを置く</strong>: 解放済みのダイスを森の領域の空いたダイススペースか、大精霊の住み家の空いたスペースに置きます。御守を使って目を上げられます(6まで、両替不可)。森では、その領域の他のどのダイス以上の目なら<strong>森アクション</strong>(目に対応)を、さらに目以下の値の建物1つの<strong>建物アクション</strong>を実行できます(他人の建物なら持ち主に所有権ボーナス)。住み家ではそのスペースの報酬を得ます。目覚めた巡礼者を1人除外すれば、未解放のダイスも森に置けます。</li>
<li><strong>C 川を渡る</strong>: 森にある自分のダイスを光の丘の空いたダイススペースへ動かし(目−1、1は渡れません)、その丘でまだ取られていない効果(妖怪カード・美徳カード・丘の効果)を1つ得ます。</li>
<li><strong>D パス</strong>: この夏はもう行動しません。</li>
<li>御魂(1回限り)と蜻蛉(毎年1回)は夏の手番中いつでも使えるフリーアクションです。</li>
</ul></dd>
<dt>秋(崇拝)</dt>
<dd>大精霊の住み家の上のダイスから順に、その持ち主が手番順の先頭になります。</dd>
<dt>冬(森の休息)</dt>
<dd>ダイスは目を保ったまま赤スペースへ戻ります(並びは自由)。妖怪を5枚以上持つプレイヤーは、ボードの妖怪1枚を除外して美徳点を得られます(精霊の美徳)。残りの妖怪は捨て札へ。大精霊が進み、雪が降ります(丘のカードの入れ替え、リザーブが1つずれる)。</dd>
</dl>
<h3>効果</h3>
<ul>
<li>効果の発動は任意です。選択のある手順には「実行しない」があります。複数の効果が待っているときは好きな順に解決します。</li>
<li>水晶を取ると4つのソケットの1つに置き、眠っている巡礼者を1人起こします。美徳カードを取ると美徳の道を1マス進み、そのマスの報酬を得ます(鳥居に着けば鳥居の報酬も)。</li>
</ul>
<h3>覚醒(4年目の冬の後)</h3>
<ol>
<li>夢の水晶の効果をもう一度。</li>
<li>手番順の先頭が3点。</li>
<li>美徳カード: 種類の数に応じた点。</li>
<li>湖の財宝: 各木霊トラックの順位に応じた点(同じマスは分け合い、切り捨て)。最終マスは最初に着いた木霊だけ。</li>
<li>岩倉: 岩倉タイルの記号の数 × 岩倉に接する眠った巡礼者の数。</li>
<li>(ダイスの目の合計+資源)÷4、切り捨て。</li>
<li>幻視カード: 条件を満たせば得点、満たさなければ失点(1つの要素は1枚にだけ数えます)。</li>
<li>ボードの建物エリア・水晶エリアで見えている美徳点。</li>
</ol>
<h3>ソロ: 天狗</h3>
<p>1人のときは、あなたの夏のアクションのたびに天狗がカードをめくり、そのカードの領域にダイスを置き(その領域がいっぱいなら次の領域)、その領域の木霊を進めます。天狗のダイスは森アクションの比較の対象になり、木霊は湖の財宝の順位を取ります(点はだれのものにもなりません)。最終得点で称号が決まります: ${titles('ja')}。</p>
<h3>画面の使い方</h3>
<p>上の欄に「いまやること」と、盤上の物に属さない選択肢(パス・支払う・選ぶ…)が出ます。妖怪を出すには手札の「出す」→妖怪スペース、ダイスを置く/川を渡るにはダイス→置き場所をクリック。タイル・木霊トラック・建物・ソケット・巡礼者などはその場所のボタンで選びます。</p>
</div>`,
  en: `<div class="bk-rules">
<h2>Bitoku — how to play</h2>
<p class="bk-rules-note">Bitoku here follows the published game's round structure and scoring, played with <strong>takuge's own component set</strong>: every card's and tile's effect, cost and value is the project's (the printed components are not public). 1–4 players; alone, you play against the Tengu, a solo opponent.</p>
<h3>Aim</h3>
<p>After four years (rounds) comes the Awakening, the final scoring: the most <strong>virtue points</strong> wins; a tie goes to the most resources left.</p>
<h3>Setup</h3>
<ul>
<li>Each player: three dice (3, 2, 1 from the left, on the red spaces), a kodama at the start of each of the five kodama tracks, 3 pilgrims awake and 8 asleep on the crystal area, one dragonfly tile, one vision card, a deck of the 5 starting yokai, 1 wood, 1 jade and a +1 amulet, and a secret Iwakura rock only you may look at.</li>
<li>The board: five forest regions (each a settlement, a kodama track and a lake treasure), the Great Spirit's abode, four hills of light (each with a yokai card, a Bitoku card and its own effect), the reserve of building, crystal, mitama and dragonfly tiles, the path of virtue with torii A and B, and two face-up Iwakura rocks. With 1–2 players each region starts with an ancient building; with 2, a neutral kodama stands on space 4 of every track.</li>
</ul>
<h3>A year</h3>
<dl>
<dt>Spring (the forest wakes)</dt>
<dd>Draw yokai until you hold 4, then, in turn order, discard one to keep 3. Then take the effects of your <strong>dream crystals</strong> (purple) in any order.</dd>
<dt>Summer (calling the guardians)</dt>
<dd>In turn order, one action each, until everyone has passed:
<ul>
<li><strong>A Play a yokai</strong> from your hand into an empty yokai slot and take its effect (optional). The die right of that slot, if on its red space, moves to the green one (<strong>released</strong>). A <strong>creativity crystal</strong> (pink) touching the slot resonates.</li>
<li><strong>B Place a die</strong>: a released die onto an empty die space of a forest region or of the Great Spirit's abode, raised by any amulets you spend (up to 6; amulets are not split). In the forest you take the <strong>forest action</strong> of its value if it is at least every other die in that region, and the <strong>building action</strong> of one building of value up to the die (another player's building pays its owner a bonus). On the abode you take the space's reward. Removing an awake pilgrim from the game lets you place an unreleased die in the forest.</li>
<li><strong>C Cross the river</strong>: move one of your dice from the forest to an empty die space of a hill (−1; a 1 cannot cross) and take one of that hill's effects not yet taken this year: its yokai card, its Bitoku card or its printed effect.</li>
<li><strong>D Pass</strong>: no more actions this summer.</li>
<li>Mitama (once each) and dragonflies (once a year each) are free actions during your summer turn.</li>
</ul></dd>
<dt>Autumn (worship)</dt>
<dd>The dice on the abode, from the top, set the new turn order.</dd>
<dt>Winter (the forest rests)</dt>
<dd>Your dice return to the red spaces keeping their values, in the order you choose. With 5 or more yokai you may retire one from your board for its virtue points. The other board yokai go to your discard pile. The Great Spirit advances and snow falls: new hill cards, the reserve slides one space.</dd>
</dl>
<h3>Effects</h3>
<ul>
<li>Every effect is optional: a step with a choice can be skipped. When several effects wait, you pick the order.</li>
<li>A crystal goes into one of four sockets and wakes one sleeping pilgrim. A Bitoku card moves you one space along the path of virtue for that space's reward (and a torii's, on reaching it).</li>
</ul>
<h3>The Awakening (after the fourth winter)</h3>
<ol>
<li>Dream crystals pay once more.</li>
<li>The first player in turn order scores 3.</li>
<li>Bitoku cards: points for the number of different kinds.</li>
<li>Lake treasures: points by rank on each kodama track (kodama sharing a space share the points, rounded down); only the first kodama to arrive may stand on a track's last space.</li>
<li>Iwakura: the count of your rock's symbol × the sleeping pilgrims touching the rock.</li>
<li>(Sum of your dice + resources) ÷ 4, rounded down.</li>
<li>Visions: points if met, a loss if not (each thing counts for one vision only).</li>
<li>The virtue points showing on your building and crystal areas.</li>
</ol>
<h3>Solo: the Tengu</h3>
<p>After each of your summer actions the Tengu turns a card: it places a die in the card's region (or the next one with room) and moves its kodama there. Its dice count as other dice for your forest actions; its kodama take lake-treasure ranks (their points go to nobody). Your final score earns a title: ${titles('en')}.</p>
<h3>Playing on this site</h3>
<p>The box at the top says what to do now and holds the choices that belong to no piece (pass, pay, choose…). To play a yokai, click its "play" and then a slot; to place a die or cross the river, click the die and then where it goes. Tiles, kodama tracks, buildings, sockets and pilgrims have their own buttons where they lie.</p>
</div>`,
};
