//! The measurement that chose the method: on a synthetic file (fixed seed), takuge's
//! recommendations find more of the hidden games people like than popularity does.

use takuge_recommend::eval::evaluate;
use takuge_recommend::synth::{synthesize, Spec};
use takuge_recommend::Params;

#[test]
fn takuge_beats_popularity_on_precision_and_recall_on_the_synthetic_file() {
    let ratings = synthesize(Spec {
        users: 600,
        games: 300,
        seed: 1,
    });
    let r = evaluate(&ratings, 1, Params::default());
    assert!(r.takuge.users > 100, "{r:?}");
    assert!(
        r.takuge.precision > r.popularity.precision,
        "precision: takuge {:.3}, popularity {:.3}",
        r.takuge.precision,
        r.popularity.precision
    );
    assert!(
        r.takuge.recall > r.popularity.recall,
        "recall: takuge {:.3}, popularity {:.3}",
        r.takuge.recall,
        r.popularity.recall
    );
    assert!(r.popularity.precision > r.random.precision, "{r:?}");
    // Deterministic: the same seed gives the same numbers.
    assert_eq!(evaluate(&ratings, 1, Params::default()).takuge, r.takuge);
}

#[test]
#[ignore = "prints the numbers for tuning"]
fn print_numbers() {
    for (users, games) in [(600, 300), (3000, 1000)] {
        let ratings = synthesize(Spec {
            users,
            games,
            seed: 1,
        });
        for shrink in [0.0, 5.0, 10.0, 30.0] {
            for neighbours in [30, 100] {
                let r = evaluate(
                    &ratings,
                    1,
                    Params {
                        shrink,
                        neighbours,
                        ..Params::default()
                    },
                );
                println!(
                    "{users}x{games} shrink {shrink} k {neighbours}: {}",
                    r.takuge.line("takuge")
                );
            }
        }
        let r = evaluate(&ratings, 1, Params::default());
        println!(
            "{}\n{}\n{}",
            r.takuge.line("takuge"),
            r.popularity.line("popularity"),
            r.random.line("random")
        );
    }
}
