//! The rule-following bot: plays sensibly by the rules, from what its seat may know.

use crate::cards::{ActionCard, ArtCard, ArtSet, Kind, Letter, Pile, Place, PLAYERS};
use crate::state::{seat_bit, seats, ArtHeist, Phase};
use crate::types::Action;
use takuge_engine::{bits, Bot, Determinized, Game, GameRng, Seated};

/// "collector": shows the largest exhibit it can (its letters, then `Show`); grows a
/// small collection at the auction house with the cheapest cheque that beats every
/// rival's best (all cheques are public), or sends a thief after the winning bid when it
/// cannot win; at the castle without an exhibit, a thief (when others are there) or the
/// detective. Buys and steals the card that strengthens its best exhibit most.
#[derive(Default)]
pub struct CollectorBot {
    legal: Vec<Action>,
}

impl CollectorBot {
    pub fn boxed() -> Box<dyn Bot<ArtHeist>> {
        Box::new(CollectorBot::default())
    }
}

/// The strongest valid exhibit in a hand (0 if none): the connected run of series with
/// the most cards, ties to the oldest card.
pub fn best_exhibit(g: &ArtHeist, hand: u64) -> u64 {
    let rules = g.rules();
    let letters = rules.letters(hand);
    let n = rules.series_letters.len() as u32;
    let mut best = 0u64;
    for lo in 0..n {
        if letters & (1 << lo) == 0 {
            continue;
        }
        let mut hi = lo;
        while hi + 1 < n && letters & (1 << (hi + 1)) != 0 {
            hi += 1;
        }
        // The whole run from `lo` is at least as strong as any part of it.
        let cards = hand & rules.series_range(lo, hi);
        if bits::count(cards) >= 3 && rules.strength(cards) > rules.strength(best) {
            best = cards;
        }
    }
    best
}

impl Bot<ArtHeist> for CollectorBot {
    fn name(&self) -> &'static str {
        "collector"
    }

    fn choose(&mut self, world: &Determinized<ArtHeist>, rng: &mut GameRng) -> Option<Action> {
        let g = world.state();
        let seat = world.seat();
        g.legal_actions(seat, &mut self.legal);
        if self.legal.is_empty() {
            return None;
        }
        let p = Seated::check(seat, PLAYERS)?;
        let hand = g.cards[p];
        let art = g.art[p];
        let holding = |kind: Kind| bits::iter(hand).map(ActionCard).find(|c| c.kind() == kind);
        let wish = match g.phase {
            Phase::Location => {
                let has_money = holding(Kind::Money).is_some();
                let best = bits::count(best_exhibit(g, art));
                // A small exhibit (or none) is worth growing while there is art to buy;
                // half the time, so the table does not settle into the same turn again
                // and again.
                let shop = has_money && (best == 0 || (best < 4 && rng.chance(1, 2)));
                if shop {
                    Some(Action::Go(Place::AuctionHouse))
                } else {
                    Some(Action::Go(Place::Castle))
                }
            }
            Phase::AuctionCards => {
                let rules = g.rules();
                // Every cheque's whereabouts is public: the best rival bid is known.
                let rivals = g.at_auction & !seat_bit(p);
                let rival_best = seats(rivals)
                    .flat_map(|q| bits::iter(g.cards[q]).map(ActionCard))
                    .filter(|c| c.kind() == Kind::Money)
                    .map(|c| rules.value(c))
                    .max();
                let mut cheques: Vec<ActionCard> = bits::iter(hand)
                    .map(ActionCard)
                    .filter(|c| c.kind() == Kind::Money)
                    .collect();
                cheques.sort_by_key(|&c| rules.value(c));
                let winning = cheques
                    .iter()
                    .find(|&&c| rival_best.is_none_or(|r| rules.value(c) > r));
                match (winning, holding(Kind::Thief)) {
                    (Some(&c), _) => Some(Action::Play(c)),
                    (None, Some(t)) if rival_best.is_some() => Some(Action::Play(t)),
                    _ => cheques.first().map(|&c| Action::Play(c)),
                }
            }
            Phase::AuctionPile { .. } => Pile::BOTH
                .into_iter()
                .filter_map(|pile| {
                    let top = g.piles[pile.index()].last()?;
                    let gain = g.rules().strength(best_exhibit(g, art | top.bit()));
                    Some((gain, pile))
                })
                .max_by_key(|&(gain, pile)| (gain, std::cmp::Reverse(pile.index())))
                .map(|(_, pile)| Action::Take(pile)),
            Phase::CastleCards => {
                let thief = holding(Kind::Thief);
                let detective = holding(Kind::Detective);
                // Places are public: the other castle players may exhibit or steal.
                let rivals = bits::count(u64::from(g.at_castle & !seat_bit(p)));
                if best_exhibit(g, art) != 0 && !(rivals >= 2 && rng.chance(1, 4)) {
                    holding(Kind::Exhibit).map(Action::Play)
                } else if thief.is_some() && rivals > 0 && rng.chance(1, 2) {
                    thief.map(Action::Play)
                } else {
                    detective.or(thief).map(Action::Play)
                }
            }
            Phase::Exhibiting | Phase::FinalExhibit => {
                let target = best_exhibit(g, art);
                if g.run[p].is_some() {
                    // The best exhibit is every card of its letters: all of the next one.
                    let rules = g.rules();
                    let sel = u32::from(rules.letters(g.exhibit[p]));
                    let letter = u32::from(rules.letters(target) & !(sel as u16)).trailing_zeros();
                    Some(Action::Cards(ArtSet::of(
                        target & rules.series_range(letter, letter),
                    )))
                } else if target == 0 {
                    Some(Action::ShowNothing)
                } else {
                    // Its letters first.
                    let letters = u32::from(g.rules().letters(target));
                    Some(Action::Exhibit {
                        from: Letter(letters.trailing_zeros() as u8),
                        to: Letter((31 - letters.leading_zeros()) as u8),
                    })
                }
            }
            Phase::Stealing => g.robbed().and_then(|e| {
                bits::iter(g.exhibit[e])
                    .max_by_key(|&a| {
                        let gain = g.rules().strength(best_exhibit(g, art | ArtCard(a).bit()));
                        (gain, std::cmp::Reverse(a))
                    })
                    .map(|a| Action::Steal(ArtCard(a)))
            }),
            Phase::Over => None,
        };
        match wish {
            Some(a) if self.legal.contains(&a) => Some(a),
            _ => rng.pick(&self.legal).copied(),
        }
    }
}
