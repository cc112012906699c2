//! Times the main-choice action list in many mid-game positions (a development aid).
use takuge_engine::{Game, GameRng};
use takuge_ghost_at_home::{GhostAtHome, Options};

fn main() {
    let mut rng = GameRng::from_seed(4);
    let mut states = Vec::new();
    let mut buf = Vec::new();
    for seed in 0..200 {
        let mut g = GhostAtHome::new(&Options::default(), 4, seed).unwrap();
        for _ in 0..(seed % 60) {
            let Some(seat) = g.to_move().first_seat() else {
                break;
            };
            let Some(a) = g.sample_action(seat, &mut rng, &mut buf) else {
                break;
            };
            g.apply(seat, &a).unwrap();
        }
        if let Some(seat) = g.to_move().first_seat() {
            g.legal_actions(seat, &mut buf);
            if buf
                .iter()
                .any(|a| matches!(a, takuge_ghost_at_home::Action::Discard { .. }))
                && g.view(takuge_engine::Viewer::Spectator).phase
                    == takuge_ghost_at_home::PhaseView::Choose
            {
                states.push((g, seat));
            }
        }
    }
    let mut total = 0usize;
    for _ in 0..5000 {
        for (g, seat) in &states {
            g.legal_actions(*seat, &mut buf);
            total += buf.len();
        }
    }
    println!("{} positions, {total} actions listed", states.len());
}
