//! Scenario tests: one per rule, named after it, quoting the rule of the seed.
//!
//! Seats are given colours in turn order (seat 0 red ... seat 4 white), so the default
//! components apply: cheques red 3/10/15/22, blue 4/11/14/21, green 5/12/13/20, purple
//! 6/8/17/19, white 7/9/16/18 (thousands); thieves red 1/10, blue 2/9, green 3/8,
//! purple 4/7, white 5/6; castle 5|3 at the start; goal 30; final exhibit +8/+4.

use crate::cards::{bits, ActionCard, ArtCard, ArtSet, Colour, Kind, Letter, Pile, Place, PLAYERS};
use crate::game::{connected, Action, ArtHeist, Options, Phase, Stack};
use crate::view::Step;
use takuge_engine::{ActionError, Game, GameRng, Seat, SeatSet, Viewer};

const RED: usize = 0;
const BLUE: usize = 1;
const GREEN: usize = 2;
const PURPLE: usize = 3;
const WHITE: usize = 4;

/// A table in turn order, no art anywhere, both piles empty; turn 1 starts (see
/// [`begin`]) once the test has laid out the cards.
fn fixture() -> ArtHeist {
    let mut g = ArtHeist::new(&Options::default(), PLAYERS, 1).expect("setup");
    g.colour = Colour::ALL;
    g.seat_of = [0, 1, 2, 3, 4];
    for p in 0..PLAYERS {
        g.set_hand(
            p,
            (0..8).fold(0, |m, s| m | ActionCard::new(Colour::ALL[p], s).bit()),
        );
    }
    g.art = [0; PLAYERS];
    g.piles = [Stack::new(), Stack::new()];
    g.public_art = 0;
    g.turn = 0;
    g
}

/// Starts turn 1 of a fixture (no-op once started).
fn begin(g: &mut ArtHeist) {
    if g.turn == 0 {
        g.start_turn();
    }
}

/// Unused art cards of the given letters, oldest first for each letter.
fn take(g: &ArtHeist, letters: &str) -> u64 {
    let rules = g.rules();
    let mut used = g.art.iter().fold(0, |m, a| m | a);
    for pile in &g.piles {
        for &a in pile.as_slice() {
            used |= ArtCard(a).bit();
        }
    }
    let mut out = 0u64;
    for l in letters.chars() {
        let a = (0..rules.art_count() as u8)
            .map(ArtCard)
            .find(|&a| rules.letter(a) == l && (used | out) & a.bit() == 0)
            .expect("enough cards of that letter");
        out |= a.bit();
    }
    out
}

fn deal(g: &mut ArtHeist, p: usize, letters: &str) -> u64 {
    let cards = take(g, letters);
    g.art[p] |= cards;
    cards
}

/// Lays a pile bottom to top; its top card is face up.
fn lay_pile(g: &mut ArtHeist, pile: Pile, letters: &str) {
    for l in letters.chars() {
        let a = take(g, &l.to_string());
        g.piles[pile.index()].push(a.trailing_zeros() as u8);
    }
    if let Some(t) = g.piles[pile.index()].top() {
        g.public_art |= ArtCard(t).bit();
    }
}

fn cheque(p: usize, slot: usize) -> ActionCard {
    ActionCard::new(Colour::ALL[p], slot)
}
fn thief(p: usize, i: usize) -> ActionCard {
    ActionCard::new(Colour::ALL[p], 4 + i)
}
fn detective(p: usize) -> ActionCard {
    ActionCard::new(Colour::ALL[p], 6)
}
fn exhibition(p: usize) -> ActionCard {
    ActionCard::new(Colour::ALL[p], 7)
}

fn act(g: &mut ArtHeist, p: usize, a: Action) {
    if let Err(e) = g.apply(Seat(p as u8), &a) {
        panic!("seat {p}: {a:?} refused: {e}\n{g:?}");
    }
}

/// Every pending seat chooses its place: the auction house for `auction`, else the castle.
fn places(g: &mut ArtHeist, auction: &[usize]) {
    begin(g);
    assert_eq!(g.phase, Phase::Location);
    let choosing = g.pending;
    for p in (0..PLAYERS).filter(|&p| choosing & (1 << p) != 0) {
        let place = if auction.contains(&p) {
            Place::AuctionHouse
        } else {
            Place::Castle
        };
        act(g, p, Action::Go(place));
    }
}

/// Chooses the letters of `cards`, then shows them letter by letter.
fn show(g: &mut ArtHeist, p: usize, cards: u64) {
    let rules = g.rules();
    let letters = u32::from(rules.letters(cards));
    let (from, to) = (letters.trailing_zeros(), 31 - letters.leading_zeros());
    let letter = |s: u32| Letter(s as u8);
    act(
        g,
        p,
        Action::Exhibit {
            from: letter(from),
            to: letter(to),
        },
    );
    for s in from..=to {
        act(
            g,
            p,
            Action::Cards(ArtSet::of(cards & rules.series_range(s, s))),
        );
    }
}

fn pending(g: &ArtHeist) -> Vec<usize> {
    g.to_move().iter().map(Seat::index).collect()
}

fn holds(g: &ArtHeist, p: usize, c: ActionCard) -> bool {
    g.cards[p] & c.bit() != 0
}

// ---- setup ----

#[test]
fn the_game_is_always_played_by_five() {
    // 「必ず、5人でゲームは行う。」
    for n in [0, 1, 4, 6, 8] {
        assert!(ArtHeist::validate(&Options::default(), n).is_err());
        assert!(ArtHeist::new(&Options::default(), n, 1).is_err());
    }
    assert!(ArtHeist::new(&Options::default(), 5, 1).is_ok());
}

#[test]
fn seat_order_is_drawn_from_the_five_colours_one_cards() {
    // 「5色の「1」のカードをランダムにシャッフルし、カードを引くことで順番を決める。」
    // 「1番手:赤、2番手:青、3番手:緑、4番手:紫、5番手:白」
    let mut reds = [0u32; PLAYERS];
    for seed in 0..200 {
        let g = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
        let mut colours = g.colour;
        colours.sort();
        assert_eq!(colours, Colour::ALL);
        for p in 0..PLAYERS {
            let c = g.colour[p];
            assert_eq!(usize::from(g.seat_of[c.index()]), p);
            // Each seat starts with its colour's eight action cards.
            assert_eq!(g.cards[p].count_ones(), 8);
            assert!(bits(g.cards[p]).all(|id| ActionCard(id).colour() == c));
        }
        reds[usize::from(g.seat_of[0])] += 1;
    }
    assert!(
        reds.iter().all(|&n| n > 20),
        "red is drawn by every seat: {reds:?}"
    );
}

#[test]
fn each_player_holds_four_art_cards_and_the_rest_form_two_piles_one_larger_tops_face_up() {
    // 「各プレイヤーは、4枚の美術品カードを保有する。」
    // 「残りの美術品は半分になるように(奇数の為、どちらかのヤマは+1)して、指定の場所に
    // 置き、1番上のカードはオープンする。」
    let g = ArtHeist::new(&Options::default(), PLAYERS, 9).expect("setup");
    assert!(g.art.iter().all(|a| a.count_ones() == 4));
    assert_eq!((g.piles[0].len(), g.piles[1].len()), (13, 12));
    let mut all = g.art.iter().fold(0u64, |m, a| m | a);
    for pile in &g.piles {
        for &a in pile.as_slice() {
            assert_eq!(all & ArtCard(a).bit(), 0, "a card in two places");
            all |= ArtCard(a).bit();
        }
    }
    assert_eq!(all, g.rules().all_art());
    // Only the two tops are public; every player sees them, nobody sees the rest.
    let tops = g
        .piles
        .iter()
        .filter_map(|p| p.top())
        .fold(0, |m, t| m | ArtCard(t).bit());
    assert_eq!(g.public_art, tops);
    let v = g.view(Viewer::Spectator);
    assert!(v.piles.iter().all(|p| p.top.is_some()));
    assert!(v
        .players
        .iter()
        .all(|p| p.art.is_empty() && p.hidden_art == 4));
    let own = g.view(Viewer::Seat(Seat(2)));
    assert_eq!(own.players[2].art.len(), 4);
    assert_eq!(own.players[3].hidden_art, 4);
}

// ---- the turn: 「1」 then 「2」 ----

#[test]
fn places_are_chosen_in_secret_and_revealed_together() {
    // 「まず、「1」のカードを秘密裏にセットする。(このターンを、オークション会場か城、
    // どちらでプレイするかを選択する。)」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "AB");
    begin(&mut g);
    assert_eq!(pending(&g), vec![0, 1, 2, 3, 4]);
    act(&mut g, RED, Action::Go(Place::AuctionHouse));
    let others = g.view(Viewer::Seat(Seat(1)));
    assert!(others.players[RED].has_chosen);
    assert_eq!(
        others.players[RED].place, None,
        "what was chosen stays hidden"
    );
    assert_eq!(g.view(Viewer::Spectator).players[RED].place, None);
    let own = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(own.players[RED].place, Some(Place::AuctionHouse));
    assert_eq!(pending(&g), vec![1, 2, 3, 4]);
    for p in 1..PLAYERS {
        act(&mut g, p, Action::Go(Place::Castle));
    }
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.players[RED].place, Some(Place::AuctionHouse));
    assert_eq!(v.players[WHITE].place, Some(Place::Castle));
}

#[test]
fn auction_house_players_play_their_action_first_and_castle_players_after_the_sale() {
    // 「「1」のカードをオープンしたら、まず、オークション会場を選択したプレイヤーから
    // 「2」のアクションにいく。」「続いて城のアクションに移る。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "ABC");
    places(&mut g, &[RED, BLUE]);
    assert_eq!(
        pending(&g),
        vec![RED, BLUE],
        "castle players wait for the sale"
    );
    // 「「2」のアクションも、「1」同様に秘密裏に行うこと。」
    act(&mut g, RED, Action::Play(cheque(RED, 3)));
    let v = g.view(Viewer::Seat(Seat(2)));
    assert!(v.players[RED].has_chosen);
    assert_eq!(v.players[RED].played, None);
    act(&mut g, BLUE, Action::Play(cheque(BLUE, 0)));
    // The sale is over (one pile: no choice) and the castle players see it.
    assert_eq!(pending(&g), vec![GREEN, PURPLE, WHITE]);
    let v = g.view(Viewer::Seat(Seat(2)));
    let sale = v.auction.expect("the sale is public");
    assert_eq!(sale.winner, Seat(0));
    assert_eq!(v.players[BLUE].played.map(|c| c.id), Some(cheque(BLUE, 0)));
}

#[test]
fn the_highest_bid_takes_a_face_up_art_card_and_its_money_goes_to_the_safe() {
    // 「お金は必ず1枚だけ出す。最も高い値を付けたプレイヤーが、2枚のヤマの内、どちらかを
    // 落札し、金庫に入れる。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "AB");
    lay_pile(&mut g, Pile::Right, "CD");
    let (b, d) = (g.piles[0].top().unwrap(), g.piles[1].top().unwrap());
    places(&mut g, &[RED, GREEN]);
    act(&mut g, RED, Action::Play(cheque(RED, 1))); // 10,000
    act(&mut g, GREEN, Action::Play(cheque(GREEN, 1))); // 12,000
    assert_eq!(
        g.phase,
        Phase::AuctionPile {
            winner: GREEN as u8
        }
    );
    let mut legal = Vec::new();
    g.legal_actions(Seat(GREEN as u8), &mut legal);
    assert_eq!(
        legal,
        vec![Action::Take(Pile::Left), Action::Take(Pile::Right)]
    );
    act(&mut g, GREEN, Action::Take(Pile::Right));
    assert_ne!(g.art[GREEN] & ArtCard(d).bit(), 0);
    assert_eq!(g.piles[0].top(), Some(b));
    assert_eq!(g.safe.as_slice(), &[cheque(GREEN, 1).0]);
    assert!(!holds(&g, GREEN, cheque(GREEN, 1)));
    // The next card of the pile is turned face up; the card bought is public.
    let c = g.piles[1].top().unwrap();
    assert_ne!(g.public_art & ArtCard(c).bit(), 0);
    assert_ne!(g.public_art & ArtCard(d).bit(), 0);
}

#[test]
fn with_one_pile_left_the_winner_takes_from_it() {
    // 「ヤマが一つになった場合は、一つから選択する。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Right, "E");
    places(&mut g, &[WHITE]);
    act(&mut g, WHITE, Action::Play(cheque(WHITE, 0)));
    assert_eq!(g.art[WHITE].count_ones(), 1);
    assert_eq!(g.phase, Phase::CastleCards);
}

#[test]
fn losing_bids_return_to_their_owners_hand() {
    // 「お金を出したプレイヤーで、落札できなかったプレイヤーは、そのお金を自分の手札に戻す。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    places(&mut g, &[RED, BLUE, PURPLE]);
    act(&mut g, RED, Action::Play(cheque(RED, 3))); // 22
    act(&mut g, BLUE, Action::Play(cheque(BLUE, 3))); // 21
    act(&mut g, PURPLE, Action::Play(cheque(PURPLE, 3))); // 19
    assert!(!holds(&g, RED, cheque(RED, 3)));
    assert!(holds(&g, BLUE, cheque(BLUE, 3)));
    assert!(holds(&g, PURPLE, cheque(PURPLE, 3)));
    assert_eq!(g.cards[BLUE].count_ones(), 8);
}

#[test]
fn a_lone_thief_steals_the_winning_money_into_its_hand() {
    // 「泥棒を選択したプレイヤーは、落札したお金を盗み、自分の持ち札とする。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    places(&mut g, &[RED, BLUE]);
    act(&mut g, RED, Action::Play(cheque(RED, 2))); // 15
    act(&mut g, BLUE, Action::Play(thief(BLUE, 0)));
    assert!(holds(&g, BLUE, cheque(RED, 2)), "the money is the thief's");
    assert!(holds(&g, BLUE, thief(BLUE, 0)), "the thief comes back");
    assert!(g.safe.is_empty());
    assert_eq!(g.art[RED].count_ones(), 1, "the winner still buys the art");
    let sale = g.auction.expect("sale");
    assert_eq!(sale.stolen_by, Some(Seat(1)));
    // A cheque may then be bid by its new holder.
    assert_eq!(g.cards[BLUE].count_ones(), 9);
}

#[test]
fn two_thieves_or_more_cancel_out() {
    // 「泥棒が場に2枚以上だされた場合は、相殺される。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    places(&mut g, &[RED, BLUE, GREEN]);
    act(&mut g, RED, Action::Play(cheque(RED, 2)));
    act(&mut g, BLUE, Action::Play(thief(BLUE, 0)));
    act(&mut g, GREEN, Action::Play(thief(GREEN, 1)));
    assert_eq!(g.safe.as_slice(), &[cheque(RED, 2).0]);
    assert!(holds(&g, BLUE, thief(BLUE, 0)) && holds(&g, GREEN, thief(GREEN, 1)));
    assert_eq!(g.cards[BLUE].count_ones(), 8);
}

#[test]
fn the_safe_shows_its_top_card_and_players_remember_the_rest() {
    // 「金庫の情報は一番上の情報だけ公開で、前の情報は、記憶を辿ることで推測する。」
    // Every cheque in the safe was shown when it was bid: players remember them, so the
    // view lists the whole safe, top last.
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "ABC");
    for (turn, bidder) in [(0, RED), (1, BLUE)] {
        places(&mut g, &[bidder]);
        act(&mut g, bidder, Action::Play(cheque(bidder, 0)));
        for p in (0..PLAYERS).filter(|&p| p != bidder) {
            act(&mut g, p, Action::Play(detective(p)));
        }
        assert_eq!(g.turn, turn + 2);
    }
    let v = g.view(Viewer::Seat(Seat(4)));
    let safe: Vec<ActionCard> = v.safe.iter().map(|c| c.id).collect();
    assert_eq!(safe, vec![cheque(RED, 0), cheque(BLUE, 0)]);
    assert_eq!(v.safe.last().and_then(|c| c.value), Some(4000));
}

#[test]
fn when_the_art_runs_out_everyone_plays_at_the_castle() {
    // 「ゲームが長引き、美術品が枯れた場合は、全員、城のみでのプレイになる。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    places(&mut g, &[RED]);
    act(&mut g, RED, Action::Play(cheque(RED, 0)));
    for p in 1..PLAYERS {
        act(&mut g, p, Action::Play(detective(p)));
    }
    // Turn 2: no art left, no place to choose — everyone is at the castle.
    assert_eq!(g.turn, 2);
    assert_eq!(g.phase, Phase::CastleCards);
    assert_eq!(pending(&g), vec![0, 1, 2, 3, 4]);
    assert_eq!(
        g.view(Viewer::Spectator).players[RED].place,
        Some(Place::Castle)
    );
}

#[test]
fn a_card_with_no_use_where_it_is_played_is_a_wasted_turn() {
    // 「「2」のアクションでその場所で出せないカードを誤って出してしまった場合は、そのまま
    // ミスとしてゲームを進める。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    deal(&mut g, GREEN, "ABC");
    places(&mut g, &[RED, BLUE]);
    // A detective or exhibition card at the auction house is a legal, wasted choice.
    let mut legal = Vec::new();
    g.legal_actions(Seat(0), &mut legal);
    assert!(legal.contains(&Action::Play(detective(RED))));
    assert!(legal.contains(&Action::Play(exhibition(RED))));
    act(&mut g, RED, Action::Play(detective(RED)));
    act(&mut g, BLUE, Action::Play(exhibition(BLUE)));
    assert!(g.piles[0].top().is_some(), "no bid, no sale");
    // A cheque at the castle is wasted too, and comes back.
    act(&mut g, GREEN, Action::Play(cheque(GREEN, 3)));
    act(&mut g, PURPLE, Action::Play(cheque(PURPLE, 0)));
    act(&mut g, WHITE, Action::Play(cheque(WHITE, 1)));
    assert_eq!(g.turn, 2);
    assert!(g.cards.iter().all(|c| c.count_ones() == 8));
    assert_eq!(g.position, [0; PLAYERS]);
    assert!(g.safe.is_empty());
}

// ---- the castle: exhibits ----

/// Everyone at the castle (no art in the piles), playing the given cards.
fn castle_turn(g: &mut ArtHeist, cards: [ActionCard; PLAYERS]) {
    begin(g);
    assert_eq!(g.phase, Phase::CastleCards);
    for (p, c) in cards.into_iter().enumerate() {
        if g.pending & (1 << p) != 0 {
            act(g, p, Action::Play(c));
        }
    }
}

#[test]
fn exhibits_are_three_cards_or_more_with_connected_letters() {
    // 「展示品は必ず3枚以上を出さなければならない。」「美術品は、アルファベットが
    // 繋がっていなければならない。」 AAA○ AAB○ ABC○ AAC× ABD×
    let letters = |s: &str| s.chars().fold(0u16, |m, c| m | 1 << (c as u8 - b'A'));
    for ok in ["AAA", "AAB", "ABC", "BCDEF"] {
        assert!(connected(letters(ok)), "{ok}");
    }
    for bad in ["AAC", "ABD", "ACE"] {
        assert!(!connected(letters(bad)), "{bad}");
    }
    // In play: each hand below can show exactly what the rule allows.
    let mut legal = Vec::new();
    for (hand, showable) in [
        ("AAA", true),
        ("AAB", true),
        ("ABC", true),
        ("AAC", false),
        ("ABD", false),
        ("AB", false),
    ] {
        let mut g = fixture();
        deal(&mut g, RED, hand);
        castle_turn(
            &mut g,
            [
                exhibition(RED),
                detective(BLUE),
                detective(GREEN),
                detective(PURPLE),
                detective(WHITE),
            ],
        );
        assert_eq!(g.phase, Phase::Exhibiting);
        g.legal_actions(Seat(0), &mut legal);
        let runs = legal
            .iter()
            .filter(|a| matches!(a, Action::Exhibit { .. }))
            .count();
        assert_eq!(runs > 0, showable, "{hand}: {legal:?}");
        assert!(
            legal.contains(&Action::ShowNothing),
            "showing nothing is always allowed"
        );
        if showable {
            let all = g.art[RED];
            show(&mut g, RED, all);
            assert_eq!(g.position[RED], 5);
        }
    }
    // The letters come first, and must be a run the hand can show: with A, B, B and D,
    // only A–B is offered; B–D and A–D are refused, and so is showing before choosing.
    let mut g = fixture();
    let hand = deal(&mut g, RED, "ABBD");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(
        legal,
        vec![
            Action::ShowNothing,
            Action::Exhibit {
                from: Letter::of('A'),
                to: Letter::of('B')
            }
        ]
    );
    let before = g.clone();
    for (from, to) in [('B', 'D'), ('A', 'D'), ('D', 'D'), ('B', 'A'), ('Z', 'Z')] {
        assert_eq!(
            g.apply(
                Seat(0),
                &Action::Exhibit {
                    from: Letter::of(from),
                    to: Letter::of(to)
                }
            ),
            Err(ActionError::Illegal(crate::game::Reject::NoSuchRun)),
            "{from}-{to}"
        );
    }
    assert_eq!(
        g.apply(Seat(0), &Action::Cards(ArtSet::of(hand))),
        Err(ActionError::Illegal(crate::game::Reject::NoExhibitYet))
    );
    assert_eq!(g, before);
    // Then the cards, a letter at a time: one or more of each, 3 cards in all. With
    // A B B: the A, then both Bs (one B would leave 2 cards).
    act(
        &mut g,
        RED,
        Action::Exhibit {
            from: Letter::of('A'),
            to: Letter::of('B'),
        },
    );
    assert_eq!(g.exhibit[RED], 0);
    let rules = g.rules();
    let (a, b) = (
        hand & rules.series_range(0, 0),
        hand & rules.series_range(1, 1),
    );
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(legal, vec![Action::Cards(ArtSet::of(a))]);
    act(&mut g, RED, Action::Cards(ArtSet::of(a)));
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(legal, vec![Action::Cards(ArtSet::of(b))]);
    let one_b = b & b.wrapping_neg();
    assert_eq!(
        g.apply(Seat(0), &Action::Cards(ArtSet::of(one_b))),
        Err(ActionError::Illegal(crate::game::Reject::NotThoseCards))
    );
    act(&mut g, RED, Action::Cards(ArtSet::of(b)));
    assert_eq!(g.position[RED], 5, "a valid exhibit of 3");
    // With A A B B C and the letters A–B, any one or both As, then the Bs needed for 3.
    let mut g = fixture();
    let hand = deal(&mut g, RED, "AABBC");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    act(
        &mut g,
        RED,
        Action::Exhibit {
            from: Letter::of('A'),
            to: Letter::of('B'),
        },
    );
    let rules = g.rules();
    let (a, b) = (
        hand & rules.series_range(0, 0),
        hand & rules.series_range(1, 1),
    );
    let (a1, a2) = (a & a.wrapping_neg(), a & (a - 1));
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(
        legal,
        vec![
            Action::Cards(ArtSet::of(a1)),
            Action::Cards(ArtSet::of(a2)),
            Action::Cards(ArtSet::of(a))
        ]
    );
    act(&mut g, RED, Action::Cards(ArtSet::of(a2)));
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(legal, vec![Action::Cards(ArtSet::of(b))], "one A: both Bs");
    assert_eq!(
        g.apply(Seat(0), &Action::Cards(ArtSet::of(a1))),
        Err(ActionError::Illegal(crate::game::Reject::NotThoseCards)),
        "the As are done"
    );
    act(&mut g, RED, Action::Cards(ArtSet::of(b)));
    assert_eq!(g.art[RED], hand, "exhibited cards stay in hand");
    assert_eq!(g.position[RED], 5);
}

#[test]
fn how_many_steps_an_exhibit_takes_depends_only_on_the_exhibit_shown() {
    // 「「せーの!」で展示する美術品を公開する。」 Exhibits are put together in secret:
    // everyone sees each step taken, so the steps must not tell what else is in hand.
    // The letters, then one step per letter: A B C takes 4 steps from A B C and from
    // A A B B C C alike, and the player stays pending until the last.
    for hand in ["ABC", "AABBCC"] {
        let mut g = fixture();
        let cards = deal(&mut g, RED, hand);
        castle_turn(
            &mut g,
            [
                exhibition(RED),
                detective(BLUE),
                detective(GREEN),
                detective(PURPLE),
                detective(WHITE),
            ],
        );
        let rules = g.rules();
        let shown: Vec<u64> = (0..3)
            .map(|s| {
                let of = cards & rules.series_range(s, s);
                of & of.wrapping_neg()
            })
            .collect();
        act(
            &mut g,
            RED,
            Action::Exhibit {
                from: Letter::of('A'),
                to: Letter::of('C'),
            },
        );
        for (i, &one) in shown.iter().enumerate() {
            assert_eq!(pending(&g), vec![RED], "{hand}: step {i}");
            act(&mut g, RED, Action::Cards(ArtSet::of(one)));
        }
        assert_eq!(g.position[RED], 5, "{hand}");
    }
    // Sets of cards travel as lists of ids (of one letter), letters as letters.
    let json = serde_json::to_string(&Action::Cards(ArtSet::of(0b11))).unwrap();
    assert_eq!(json, r#"{"cards":[0,1]}"#);
    let back: Action = serde_json::from_str(&json).unwrap();
    assert_eq!(back, Action::Cards(ArtSet::of(0b11)));
    assert!(serde_json::from_str::<Action>(r#"{"cards":[64]}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"cards":[0,8]}"#).is_err());
    let exhibit = Action::Exhibit {
        from: Letter::of('A'),
        to: Letter::of('C'),
    };
    let json = serde_json::to_string(&exhibit).unwrap();
    assert_eq!(json, r#"{"exhibit":{"from":"A","to":"C"}}"#);
    assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), exhibit);
}

#[test]
fn a_lone_exhibitor_moves_by_the_first_place_number_of_the_castle_beside_the_leader() {
    // 「展示を出したプレイヤーは、3枚以上連なった美術品を公開し、トップのプレイヤーが
    // いる位置の城に表示された数字の数だけ駒を進める。」「単独の場合は、展示の後、1位の
    // 分だけ駒を進める。」
    let mut g = fixture();
    g.position = [0, 12, 3, 0, 0]; // the leader (blue) is beside the 4|2 castle (12-13)
    let cards = deal(&mut g, RED, "CDE");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    show(&mut g, RED, cards);
    assert_eq!(g.position, [4, 12, 3, 0, 0]);
    // The exhibit is revealed to all, and its cards stay with their owner.
    assert_eq!(g.public_art & cards, cards);
    assert_eq!(g.art[RED], cards);
}

#[test]
fn with_several_exhibitors_the_most_cards_come_first_and_only_first_and_second_move() {
    // 「複数のプレイヤーがいた場合は、展示品のバトルになり、多くの展示品を出したプレイヤー
    // から順に、そのターンの1位、2位を決め、1位と2位だけが指定された数字の分、駒を進める
    // ことができる。」
    let mut g = fixture();
    let r = deal(&mut g, RED, "AAB");
    let b = deal(&mut g, BLUE, "BCDE");
    let gr = deal(&mut g, GREEN, "EEFF");
    let p = deal(&mut g, PURPLE, "CCCDD");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            exhibition(BLUE),
            exhibition(GREEN),
            exhibition(PURPLE),
            detective(WHITE),
        ],
    );
    // 「プレイヤーは全ての美術品を手に持ったまま、「せーの!」で展示する美術品を公開する。」
    show(&mut g, RED, r);
    show(&mut g, BLUE, b);
    let v = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(
        v.players[BLUE].exhibit, None,
        "exhibits stay hidden until all are shown"
    );
    assert!(v.players[BLUE].has_chosen);
    show(&mut g, GREEN, gr);
    show(&mut g, PURPLE, p);
    // Purple 5 cards first (+5), then blue or green with 4: blue's oldest card decides.
    let rules = g.rules();
    let oldest = |cards: u64| bits(cards).map(|a| rules.year(ArtCard(a))).min();
    let second = if oldest(b) < oldest(gr) { BLUE } else { GREEN };
    let mut expected = [0u8; PLAYERS];
    expected[PURPLE] = 5;
    expected[second] = 3;
    assert_eq!(g.position, expected, "{:?}", rules.castle_numbers(0));
}

#[test]
fn equal_exhibits_are_ranked_by_their_oldest_card() {
    // 「同点の場合は、最終の展示の強さで着順を決める。」: the strength of an exhibit is
    // its number of cards, then its oldest card (the published game's tie-break).
    let mut g = fixture();
    let r = deal(&mut g, RED, "BBB"); // takes the three oldest B cards
    let b = deal(&mut g, BLUE, "BBB");
    assert!(r.trailing_zeros() < b.trailing_zeros());
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            exhibition(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    show(&mut g, BLUE, b);
    show(&mut g, RED, r);
    assert_eq!(g.position[RED], 5);
    assert_eq!(g.position[BLUE], 3);
}

#[test]
fn a_failed_exhibit_moves_back_by_the_inverse_rank_and_skips_the_next_turn() {
    // 「展示の際、3枚以上出せなかったプレイヤーは、そのマイナス順位分後退し(1位のプレイヤー
    // は5マス後退)、次のターンは1回休みとなる。」
    let mut g = fixture();
    g.position = [10, 8, 6, 4, 2];
    deal(&mut g, RED, "AC");
    deal(&mut g, PURPLE, "AAA");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            detective(BLUE),
            detective(GREEN),
            exhibition(PURPLE),
            detective(WHITE),
        ],
    );
    let mut legal = Vec::new();
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(legal, vec![Action::ShowNothing]);
    act(&mut g, RED, Action::ShowNothing);
    // Purple could show, but declines: the same penalty (nobody can tell the two apart).
    act(&mut g, PURPLE, Action::ShowNothing);
    // Red was 1st: back 5. Purple was 4th: back 2.
    assert_eq!(g.position, [5, 8, 6, 2, 2]);
    assert_eq!(g.turn, 2);
    assert_eq!(
        pending(&g),
        vec![BLUE, GREEN, WHITE],
        "red and purple skip this turn"
    );
    let v = g.view(Viewer::Spectator);
    assert!(v.players[RED].resting && v.players[PURPLE].resting);
    castle_turn(
        &mut g,
        [
            detective(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    assert_eq!(pending(&g), vec![0, 1, 2, 3, 4], "back in the turn after");
}

#[test]
fn a_pawn_never_moves_back_past_the_start() {
    // 「そのマイナス順位分後退し」: from space 2, back 5 ends on the start.
    let mut g = fixture();
    g.position = [2, 0, 0, 0, 0];
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    act(&mut g, RED, Action::ShowNothing);
    assert_eq!(g.position[RED], 0);
}

// ---- the castle: thieves and detectives ----

#[test]
fn thieves_steal_one_card_from_each_exhibit_highest_number_first() {
    // 「その後、泥棒は、展示された美術品から1枚を盗むことができる。展示者が複数いた場合は、
    // そのどちらからも1枚盗むことができる。」「泥棒が複数いた場合は、泥棒の数字の多い順から
    // 展示品を選ぶ。」
    let mut g = fixture();
    let r = deal(&mut g, RED, "AAAA");
    let b = deal(&mut g, BLUE, "DEF");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            exhibition(BLUE),
            thief(GREEN, 0),
            thief(PURPLE, 1),
            detective(WHITE),
        ],
    );
    show(&mut g, RED, r);
    show(&mut g, BLUE, b);
    // Purple's thief 7 beats green's 3: purple chooses first, from red's (first) exhibit.
    assert_eq!(g.phase, Phase::Stealing);
    assert_eq!(pending(&g), vec![PURPLE]);
    let v = g.view(Viewer::Spectator);
    assert_eq!(
        v.step,
        Step::Stealing {
            thief: Seat(3),
            from: Seat(0)
        }
    );
    let newest_a = ArtCard(63 - r.leading_zeros() as u8);
    act(&mut g, PURPLE, Action::Steal(newest_a));
    let oldest_d = ArtCard(b.trailing_zeros() as u8);
    act(&mut g, PURPLE, Action::Steal(oldest_d));
    assert_eq!(pending(&g), vec![GREEN]);
    let mut legal = Vec::new();
    g.legal_actions(Seat(2), &mut legal);
    assert_eq!(legal.len(), 3, "three A cards left in red's exhibit");
    let a = match legal[0] {
        Action::Steal(a) => a,
        _ => panic!(),
    };
    act(&mut g, GREEN, Action::Steal(a));
    act(
        &mut g,
        GREEN,
        Action::Steal(ArtCard((b & !oldest_d.bit()).trailing_zeros() as u8)),
    );
    assert_eq!(g.art[PURPLE], newest_a.bit() | oldest_d.bit());
    assert_eq!(g.art[GREEN].count_ones(), 2);
    assert_eq!(g.art[RED].count_ones(), 2);
    assert_eq!(g.art[BLUE].count_ones(), 1);
    // White's detective then catches both thieves.
    assert_eq!(g.cage.len(), 2);
}

#[test]
fn a_thief_steals_nothing_when_no_exhibited_card_is_left() {
    // 「もし、盗む展示品がない、もしくはなくなった場合は、その泥棒は盗むことができない。」
    let mut g = fixture();
    let r = deal(&mut g, RED, "ABC");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            thief(BLUE, 1),
            thief(GREEN, 1),
            thief(PURPLE, 1),
            thief(WHITE, 1),
        ],
    );
    show(&mut g, RED, r);
    // Thieves 9 (blue), 8 (green), 7 (purple), 6 (white): three cards for four thieves.
    while g.phase == Phase::Stealing {
        let p = pending(&g)[0];
        let mut legal = Vec::new();
        g.legal_actions(Seat(p as u8), &mut legal);
        act(&mut g, p, legal[0]);
    }
    assert_eq!(g.art[RED], 0);
    assert_eq!(
        [g.art[BLUE], g.art[GREEN], g.art[PURPLE]].map(u64::count_ones),
        [1, 1, 1]
    );
    assert_eq!(g.art[WHITE], 0, "the weakest thief found nothing left");
    assert_eq!(g.position[RED], 5, "the exhibitor still moved");
    // Nobody else exhibits: thieves with no exhibit at all steal nothing either.
    castle_turn(
        &mut g,
        [
            detective(RED),
            thief(BLUE, 0),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    assert_eq!(g.art[BLUE].count_ones(), 1);
}

#[test]
fn a_detective_catches_the_thieves_who_keep_their_loot_and_advances_by_its_own_rank() {
    // 「その後、探偵は、泥棒を捕まえる。泥棒は捕まっても戦利品は没収されない。」
    // 「泥棒を捕まえたプレイヤーは、自分の順位分、駒を進める。(5位ならば、5マス進む。)」
    let mut g = fixture();
    g.position = [9, 8, 7, 6, 1];
    let r = deal(&mut g, RED, "FFF");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            thief(BLUE, 1),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    show(&mut g, RED, r);
    let mut legal = Vec::new();
    g.legal_actions(Seat(1), &mut legal);
    act(&mut g, BLUE, legal[0]);
    // Red moved first (9 -> 13, castle 4|2 beside it); ranks are then red 1, blue 2,
    // green 3, purple 4, white 5.
    assert_eq!(g.position, [13, 8, 7 + 3, 6 + 4, 1 + 5]);
    assert_eq!(g.art[BLUE].count_ones(), 1, "the loot is not taken back");
    assert_eq!(g.cage.as_slice(), &[thief(BLUE, 1).0]);
    assert!(!holds(&g, BLUE, thief(BLUE, 1)));
}

#[test]
fn caught_thieves_enter_the_cage_strongest_first_and_those_pushed_out_return_to_their_owners() {
    // 「捕まえられた泥棒は、強い順番に檻に入れられ、檻から溢れた泥棒は、もとのプレイヤーの
    // 元へ返却される。」 Five cells; a newcomer takes cell 1 and pushes the others on.
    let mut g = fixture();
    // Turn 1: blue 9, green 8, purple 7, white 6 caught by red's detective.
    castle_turn(
        &mut g,
        [
            detective(RED),
            thief(BLUE, 1),
            thief(GREEN, 1),
            thief(PURPLE, 1),
            thief(WHITE, 1),
        ],
    );
    let cage: Vec<u8> = g.cage.as_slice().to_vec();
    assert_eq!(
        cage,
        vec![
            thief(WHITE, 1).0,
            thief(PURPLE, 1).0,
            thief(GREEN, 1).0,
            thief(BLUE, 1).0
        ]
    );
    // Turn 2: blue 2 and white 5 caught by red: white 5 enters first, then blue 2; the
    // cage holds five, so blue's 9 (the oldest prisoner) is pushed out and returns.
    castle_turn(
        &mut g,
        [
            detective(RED),
            thief(BLUE, 0),
            detective(GREEN),
            detective(PURPLE),
            thief(WHITE, 0),
        ],
    );
    let cage: Vec<u8> = g.cage.as_slice().to_vec();
    assert_eq!(
        cage,
        vec![
            thief(BLUE, 0).0,
            thief(WHITE, 0).0,
            thief(WHITE, 1).0,
            thief(PURPLE, 1).0,
            thief(GREEN, 1).0
        ]
    );
    assert!(
        holds(&g, BLUE, thief(BLUE, 1)),
        "pushed out, back to its owner"
    );
    assert!(!holds(&g, BLUE, thief(BLUE, 0)));
}

#[test]
fn a_detective_without_thieves_does_nothing() {
    // 「探偵を出し、泥棒がいない場合は、何も起きない。」
    let mut g = fixture();
    castle_turn(
        &mut g,
        [
            detective(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            cheque(WHITE, 0),
        ],
    );
    assert_eq!(g.position, [0; PLAYERS]);
    assert!(g.cage.is_empty());
    assert_eq!(g.turn, 2);
}

#[test]
fn uncaught_thieves_return_to_their_owners() {
    // Only a detective cages a thief; otherwise the thief card comes back like any other.
    let mut g = fixture();
    castle_turn(
        &mut g,
        [
            thief(RED, 0),
            thief(BLUE, 0),
            exhibition(GREEN),
            cheque(PURPLE, 0),
            cheque(WHITE, 0),
        ],
    );
    act(&mut g, GREEN, Action::ShowNothing);
    assert!(g.cage.is_empty());
    assert!(holds(&g, RED, thief(RED, 0)) && holds(&g, BLUE, thief(BLUE, 0)));
}

// ---- the end ----

fn finish_final(g: &mut ArtHeist, exhibits: [u64; PLAYERS]) {
    assert_eq!(g.phase, Phase::FinalExhibit);
    assert_eq!(
        pending(g),
        vec![0, 1, 2, 3, 4],
        "everyone shows a final exhibit"
    );
    for (p, e) in exhibits.into_iter().enumerate() {
        if e == 0 {
            act(g, p, Action::ShowNothing);
        } else {
            show(g, p, e);
        }
    }
}

#[test]
fn reaching_the_goal_ends_the_turn_and_starts_the_final_exhibit() {
    // 「コマを進めた後、いずれかのプレイヤーがゴール地点に辿り着いたら、最後の展示を行う。」
    let mut g = fixture();
    g.position = [28, 0, 0, 0, 0];
    let r = deal(&mut g, RED, "ABC");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            thief(BLUE, 0),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    show(&mut g, RED, r);
    // The turn finishes first (the thief steals, the detectives catch it)...
    act(
        &mut g,
        BLUE,
        Action::Steal(ArtCard(r.trailing_zeros() as u8)),
    );
    assert_eq!(g.position[RED], 30);
    assert_eq!(g.cage.len(), 1);
    // ...then the final exhibit.
    assert_eq!(g.phase, Phase::FinalExhibit);
    assert_eq!(g.outcome(), None);
}

#[test]
fn the_final_exhibits_first_and_second_move_and_the_farthest_pawn_wins() {
    // 「最後の展示をして、その展示の1位・2位のプレイヤーの駒を進めた結果、最終的に最も
    // 進んでいるプレイヤーが勝利となる。」 (+8 and +4, the published numbers)
    let mut g = fixture();
    g.position = [30, 27, 25, 20, 0];
    let b = deal(&mut g, BLUE, "ABCD");
    let gr = deal(&mut g, GREEN, "EEF");
    deal(&mut g, RED, "AAC");
    g.next_resting = 1 << RED; // resting changes nothing: everyone shows a final exhibit
    castle_turn(
        &mut g,
        [
            detective(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    finish_final(&mut g, [0, b, gr, 0, 0]);
    assert_eq!(g.position, [30, 35, 29, 20, 0]);
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners().collect::<Vec<_>>(), vec![Seat(1)]);
    assert_eq!(outcome.ranks, vec![2, 1, 3, 4, 5]);
    assert!(g.to_move().is_empty());
    assert_eq!(
        g.apply(Seat(0), &Action::ShowNothing),
        Err(ActionError::GameOver)
    );
    // At the end every final exhibit is public.
    let v = g.view(Viewer::Seat(Seat(4)));
    assert_eq!(v.players[BLUE].exhibit.as_ref().map(Vec::len), Some(4));
    assert_eq!(v.step, Step::Over);
}

#[test]
fn ties_on_the_track_are_broken_by_the_strength_of_the_final_exhibit() {
    // 「同点の場合は、最終の展示の強さで着順を決める。」
    let mut g = fixture();
    g.position = [30, 40, 40, 40, 40];
    let b = deal(&mut g, BLUE, "AAAA"); // most cards: first (+8)
    let gr = deal(&mut g, GREEN, "BBB"); // oldest of the 3-card exhibits: second (+4)
    let p = deal(&mut g, PURPLE, "FFF");
    castle_turn(
        &mut g,
        [
            detective(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    finish_final(&mut g, [0, b, gr, p, 0]);
    assert_eq!(g.position, [30, 48, 44, 40, 40]);
    // Purple and white tie on 40: purple showed an exhibit, white none.
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.ranks, vec![5, 1, 2, 3, 4]);
    // Two pawns tied without a final exhibit share their place.
    let mut g = fixture();
    g.position = [30, 40, 40, 0, 0];
    castle_turn(
        &mut g,
        [
            detective(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    finish_final(&mut g, [0; PLAYERS]);
    assert_eq!(g.outcome().expect("over").ranks, vec![3, 1, 1, 4, 4]);
}

#[test]
fn the_game_ends_after_the_turn_limit() {
    // A takuge default (the seed has no limit): after `max_turns` turns the final exhibit
    // is held as if a pawn had reached the goal, so every game ends.
    let mut g = fixture();
    let limit = g.rules().max_turns;
    begin(&mut g);
    while g.phase == Phase::CastleCards {
        castle_turn(
            &mut g,
            [
                detective(RED),
                detective(BLUE),
                detective(GREEN),
                detective(PURPLE),
                detective(WHITE),
            ],
        );
    }
    assert_eq!(g.turn, limit);
    assert_eq!(g.phase, Phase::FinalExhibit);
}

// ---- secrets ----

#[test]
fn chosen_cards_stay_hidden_until_revealed_and_hands_of_art_stay_secret() {
    // 「「2」のアクションも、「1」同様に秘密裏に行うこと。」「プレイヤーは全ての美術品を
    // 手に持ったまま」
    let mut g = fixture();
    let r = deal(&mut g, RED, "ABC");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    act(
        &mut g,
        RED,
        Action::Exhibit {
            from: Letter::of('A'),
            to: Letter::of('C'),
        },
    );
    let a = r & g.rules().series_range(0, 0);
    act(&mut g, RED, Action::Cards(ArtSet::of(a)));
    let spectator = g.view(Viewer::Spectator);
    assert_eq!(spectator.players[RED].exhibit, None);
    assert_eq!(spectator.players[RED].exhibit_letters, None);
    assert_eq!(
        g.view(Viewer::Seat(Seat(1))).players[RED].exhibit_letters,
        None
    );
    assert_eq!(
        g.view(Viewer::Seat(Seat(0))).players[RED].exhibit_letters,
        Some([Letter::of('A'), Letter::of('C')]),
        "a player sees the letters it chose"
    );
    assert!(
        !spectator.players[RED].has_chosen,
        "still putting it together"
    );
    assert_eq!(spectator.players[RED].hidden_art, 3);
    assert_eq!(
        g.view(Viewer::Seat(Seat(0))).players[RED]
            .exhibit
            .as_ref()
            .map(Vec::len),
        Some(1)
    );
    // Played cards: the action card is face down for the others while the phase runs.
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    places(&mut g, &[RED, BLUE]);
    act(&mut g, RED, Action::Play(cheque(RED, 0)));
    let v = g.view(Viewer::Seat(Seat(1)));
    assert_eq!(v.players[RED].played, None);
    assert!(
        v.players[RED].cards.iter().any(|c| c.id == cheque(RED, 0)),
        "still counted as held"
    );
}

#[test]
fn determinize_redraws_only_what_the_seat_cannot_see() {
    let mut g = ArtHeist::new(&Options::default(), PLAYERS, 5).expect("setup");
    for p in 0..PLAYERS {
        act(&mut g, p, Action::Go(Place::Castle));
    }
    let card = ActionCard::new(g.colour[1], 7);
    act(&mut g, 1, Action::Play(card));
    let mut rng = GameRng::from_seed(3);
    let mut changed = false;
    for _ in 0..50 {
        let w = g.determinize(Seat(0), &mut rng);
        assert_eq!(w.art[0], g.art[0], "own hand is known");
        assert_eq!(w.public_art, g.public_art);
        for p in 0..PLAYERS {
            assert_eq!(w.art[p] & g.public_art, g.art[p] & g.public_art);
            assert_eq!(w.art[p].count_ones(), g.art[p].count_ones());
            assert_eq!(w.cards[p], g.cards[p], "action cards are public knowledge");
        }
        for (wp, gp) in w.piles.iter().zip(&g.piles) {
            assert_eq!(wp.len(), gp.len());
            assert_eq!(wp.top(), gp.top());
        }
        assert_eq!(w.view(Viewer::Seat(Seat(0))), g.view(Viewer::Seat(Seat(0))));
        assert_eq!(w.to_move(), g.to_move());
        changed |= w.art != g.art || w.played[1] != g.played[1];
    }
    assert!(changed);
}

// ---- bots ----

#[test]
fn every_bot_plays_complete_legal_games() {
    use takuge_engine::bot::bot_move;
    use takuge_engine::MonteCarloBot;
    let mut rng = GameRng::from_seed(11);
    for seed in 0..4 {
        let mut g = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
        let mut bots: Vec<Box<dyn takuge_engine::Bot<ArtHeist>>> = crate::bots()
            .iter()
            .take(2)
            .map(|(_, f)| f())
            .cycle()
            .take(4)
            .collect();
        bots.push(Box::new(MonteCarloBot::<ArtHeist>::new(8)));
        let mut steps = 0;
        while let Some(seat) = g.to_move().first_seat() {
            let a = bot_move(bots[seat.index()].as_mut(), &g, seat, &mut rng).expect("a move");
            g.apply(seat, &a).expect("bots play legal moves");
            steps += 1;
            assert!(steps < 20_000);
        }
        assert!(g.outcome().is_some());
    }
    assert_eq!(
        crate::bots().iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        vec!["collector", "random", "monte-carlo"]
    );
    let _ = (Kind::Money, SeatSet::EMPTY);
}

#[test]
fn the_collector_beats_random_players() {
    use takuge_engine::bot::bot_move;
    use takuge_engine::RandomBot;
    let mut rng = GameRng::from_seed(5);
    let mut wins = 0;
    let games = 40;
    for seed in 0..games {
        let mut g = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
        let mut bots: Vec<Box<dyn takuge_engine::Bot<ArtHeist>>> =
            vec![crate::CollectorBot::boxed()];
        bots.extend((1..PLAYERS).map(|_| RandomBot::<ArtHeist>::boxed()));
        while let Some(seat) = g.to_move().first_seat() {
            let a = bot_move(bots[seat.index()].as_mut(), &g, seat, &mut rng).expect("a move");
            g.apply(seat, &a).expect("legal");
        }
        wins += u32::from(g.outcome().expect("over").ranks[0] == 1);
    }
    assert!(wins > games as u32 / 2, "collector won {wins} of {games}");
}

#[test]
fn the_log_shows_secret_choices_only_to_their_maker_and_open_choices_to_all() {
    // 「秘密裏に」: places, action cards and exhibits are secret until revealed; the
    // winner's pile and a thief's loot are chosen in the open.
    let g = fixture();
    let red = Seat(0);
    let go = Action::Go(Place::Castle);
    assert!(g.describe_for(red, &go, Viewer::Seat(red)).is_some());
    assert_eq!(g.describe_for(red, &go, Viewer::Seat(Seat(1))), None);
    assert_eq!(g.describe_for(red, &go, Viewer::Spectator), None);
    let play = Action::Play(cheque(RED, 3));
    assert_eq!(g.describe_for(red, &play, Viewer::Seat(Seat(2))), None);
    let take = Action::Take(Pile::Left);
    assert!(g.describe_for(red, &take, Viewer::Spectator).is_some());
    let steal = Action::Steal(ArtCard(0));
    assert_eq!(
        g.describe_for(red, &steal, Viewer::Seat(Seat(4)))
            .as_deref(),
        Some("steal art A (1431)")
    );
    assert_eq!(g.describe(&play), "play red cheque 22,000");
}

#[test]
fn sampled_actions_follow_the_legal_list() {
    // Random playouts draw without listing; the draw must be the legal list's k-th.
    let mut g = ArtHeist::new(&Options::default(), PLAYERS, 3).expect("setup");
    let mut rng = GameRng::from_seed(8);
    let mut legal = Vec::new();
    let mut steps = 0;
    while let Some(seat) = g.to_move().first_seat() {
        g.legal_actions(seat, &mut legal);
        let mut a = rng.clone();
        let mut b = rng.clone();
        let sampled = g.sample_action(seat, &mut a, &mut Vec::new());
        let listed = b.pick(&legal).copied();
        assert_eq!(sampled, listed);
        rng = a;
        let action = sampled.expect("pending seats have an action");
        g.apply(seat, &action).expect("legal");
        steps += 1;
    }
    assert!(steps > 50);
}

/// The game's own random playout plays the common steps without `apply`'s check: it
/// must play exactly the games of the engine's checked loop, whole or cut off.
#[test]
fn random_playout_plays_the_same_games_as_the_checked_loop() {
    let mut buf_a = Vec::new();
    let mut buf_b = Vec::new();
    for seed in 0..300 {
        for max_steps in [100_000, 37] {
            let mut fast = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
            let mut checked = fast.clone();
            let mut rng_a = GameRng::from_seed(seed);
            let mut rng_b = GameRng::from_seed(seed);
            let a =
                takuge_engine::bot::random_playout(&mut fast, &mut rng_a, &mut buf_a, max_steps);
            let b = takuge_engine::bot::checked_random_playout(
                &mut checked,
                &mut rng_b,
                &mut buf_b,
                max_steps,
            );
            assert_eq!(a, b);
            assert_eq!(fast, checked);
            assert_eq!(rng_a.next_u64(), rng_b.next_u64());
            assert_eq!(fast.is_over(), max_steps == 100_000);
        }
    }
}

/// The Monte Carlo bot plays out from the middle of a turn, in worlds redrawn for the
/// seat to move (an exhibit half put together starts again from nothing): the game's own
/// playout must resume from any such state exactly as the checked loop does.
#[test]
fn random_playout_resumes_mid_turn_and_in_redrawn_worlds_like_the_checked_loop() {
    let mut buf = Vec::new();
    for seed in 0..200 {
        for cut in [1, 3, 6, 9, 14, 22, 41, 77, 150, 301] {
            let mut start = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
            let mut rng = GameRng::from_seed(seed ^ 0x5eed);
            takuge_engine::bot::checked_random_playout(&mut start, &mut rng, &mut buf, cut);
            let mut worlds = vec![start.clone()];
            if let Some(seat) = start.to_move().first_seat() {
                worlds.push(start.determinize(seat, &mut rng));
            }
            for world in worlds {
                let mut fast = world.clone();
                let mut checked = world;
                let (mut rng_a, mut rng_b) = (rng.clone(), rng.clone());
                let a =
                    takuge_engine::bot::random_playout(&mut fast, &mut rng_a, &mut buf, 100_000);
                let b = takuge_engine::bot::checked_random_playout(
                    &mut checked,
                    &mut rng_b,
                    &mut buf,
                    100_000,
                );
                assert_eq!((a, &fast), (b, &checked), "seed {seed}, cut {cut}");
                assert_eq!(rng_a.next_u64(), rng_b.next_u64());
            }
        }
    }
}
