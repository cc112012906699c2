//! Records and rules versions: a record must replay into exactly the game it recorded,
//! so one written under another edition of the rules code is refused, not replayed.

use takuge_engine::record::{replay, ReplayError};
use takuge_engine::{Game, MatchRecord, Recorder, SeatRecord};
use takuge_secret_moon::{Options, SecretMoon};

fn finished_record() -> MatchRecord {
    let seats = vec![SeatRecord::default(); 5];
    let mut recorder = match Recorder::<SecretMoon>::new(Options::default(), seats, 7) {
        Ok(r) => r,
        Err(e) => panic!("setup: {e}"),
    };
    let mut rng = takuge_engine::GameRng::from_seed(1);
    let mut buf = Vec::new();
    while let Some(seat) = recorder.state().to_move().iter().next() {
        let action = match recorder.state().sample_action(seat, &mut rng, &mut buf) {
            Some(a) => a,
            None => panic!("no action for a pending seat"),
        };
        if let Err(e) = recorder.apply(seat, action) {
            panic!("sampled action refused: {e}");
        }
    }
    match recorder.record().to_json() {
        Ok(r) => r,
        Err(e) => panic!("record to JSON: {e}"),
    }
}

#[test]
fn a_record_of_this_rules_version_replays() {
    let record = finished_record();
    assert_eq!(record.rules, SecretMoon::RULES_VERSION);
    let typed = record.typed::<SecretMoon>().expect("typed");
    let state = replay::<SecretMoon>(&typed).expect("replays");
    assert!(state.is_over());
}

#[test]
fn a_record_from_another_rules_version_is_refused_with_a_reason() {
    let mut record = finished_record();
    record.rules = 1;
    match record.typed::<SecretMoon>() {
        Err(ReplayError::RulesVersion {
            expected, found, ..
        }) => {
            assert_eq!((expected, found), (SecretMoon::RULES_VERSION, 1));
        }
        other => panic!("expected a rules-version refusal, got {other:?}"),
    }
}

#[test]
fn a_record_written_before_the_field_existed_reads_as_version_1() {
    let mut json = serde_json::to_value(finished_record()).expect("json");
    json.as_object_mut().expect("object").remove("rules");
    let record: MatchRecord = serde_json::from_value(json).expect("reads");
    assert_eq!(record.rules, 1);
}

/// 「(行動順カードによる順番は公開されません)」 is the default: options stored before the
/// `public_order` option existed read as the rules (the order secret).
#[test]
fn options_stored_without_public_order_read_as_the_order_secret() {
    let stored: Options = serde_json::from_str(r#"{"games": 3, "thief": true}"#).expect("reads");
    assert!(!stored.public_order);
    assert_eq!(
        stored,
        Options {
            games: takuge_secret_moon::MatchLength::Three,
            thief: true,
            public_order: false,
        }
    );
    let open: Options = serde_json::from_str(r#"{"public_order": true}"#).expect("reads");
    assert!(open.public_order);
    assert!(SecretMoon::option_sets().contains(&open));
}
