//! A table's public versions: one per *move*, not per committed step.
//!
//! A secret choice made of several steps (`Game::drafting`: the art-heist exhibit, its
//! letters and then a letter's cards a step) is committed step by step, so that a
//! restart keeps it, but nobody else may learn how many steps it took: a rival who
//! counts them learns how big the choice is before the reveal (「「せーの!」で展示する
//! 美術品を公開する」). So a draft step makes no new version, no log line for anyone
//! and no message to anyone but its seat; the step that completes the choice is the
//! move everyone sees, once, whatever it took. The drafting seat's own log line of
//! the move tells all of its steps.

use takuge_engine::Seat;

/// One language's log lines of a seat's own draft steps.
type OwnLines = Vec<Option<String>>;

#[derive(Clone, Debug, Default)]
pub struct Moves {
    /// After each committed step, in order: the public version (moves completed).
    after_step: Vec<u64>,
    /// Per seat: its own log lines (English, Japanese) of the draft steps it has made
    /// of the choice under way; they join the line of the step that completes it.
    drafts: Vec<(OwnLines, OwnLines)>,
}

impl Moves {
    pub fn new(players: usize) -> Self {
        Moves {
            after_step: Vec::new(),
            drafts: vec![Default::default(); players],
        }
    }

    /// The public version: the moves made.
    pub fn version(&self) -> u64 {
        self.after_step.last().copied().unwrap_or(0)
    }

    /// The committed steps.
    pub fn steps(&self) -> usize {
        self.after_step.len()
    }

    /// A step was committed; `completes` says whether it made a move (it left its seat
    /// not drafting).
    pub fn push_step(&mut self, completes: bool) {
        let v = self.version() + u64::from(completes);
        self.after_step.push(v);
    }

    /// The public version after committed step `step` (1-based, as stored): the ack a
    /// resend of that step is answered with.
    pub fn version_after_step(&self, step: u64) -> u64 {
        usize::try_from(step)
            .ok()
            .and_then(|s| s.checked_sub(1))
            .and_then(|i| self.after_step.get(i))
            .copied()
            .unwrap_or_else(|| self.version())
    }

    /// The index of the first step committed after public version `version` was
    /// reached: steps from here on are ones a client at that version has not seen
    /// completed.
    pub fn first_step_after(&self, version: u64) -> usize {
        if version == 0 {
            return 0;
        }
        // The step that made `version` is the first whose version reaches it.
        let made = self.after_step.partition_point(|&v| v < version);
        (made + 1).min(self.after_step.len())
    }

    /// Keeps `seat`'s own lines of a draft step, for the move that completes it.
    pub fn add_draft_lines(&mut self, seat: Seat, en: Option<String>, ja: Option<String>) {
        if let Some((e, j)) = self.drafts.get_mut(seat.index()) {
            e.push(en);
            j.push(ja);
        }
    }

    /// Whether `seat` has draft steps not yet part of a move.
    pub fn has_draft(&self, seat: Seat) -> bool {
        self.draft_steps(seat) > 0
    }

    /// How many draft steps `seat` has made of the choice under way: told to that seat
    /// alone (`draft` in its table messages), so that its client can tell a new step
    /// to answer from the one it answered, the version being the same.
    pub fn draft_steps(&self, seat: Seat) -> usize {
        self.drafts.get(seat.index()).map_or(0, |(e, _)| e.len())
    }

    /// Puts `seat`'s draft lines before its own line of the completing step, in each
    /// language (`lines` and `lines_ja`: one entry per viewer, `seat`'s at its index),
    /// and forgets them. Others' lines are the completing step's only.
    pub fn complete(
        &mut self,
        seat: Seat,
        lines: &mut [Option<String>],
        lines_ja: &mut [Option<String>],
    ) {
        let Some((en, ja)) = self.drafts.get_mut(seat.index()) else {
            return;
        };
        let (en, ja) = (std::mem::take(en), std::mem::take(ja));
        for (drafts, lines, sep) in [(en, lines, "; "), (ja, lines_ja, "、")] {
            if drafts.is_empty() {
                continue;
            }
            if let Some(own) = lines.get_mut(seat.index()) {
                let parts: Vec<String> = drafts.into_iter().chain([own.take()]).flatten().collect();
                *own = (!parts.is_empty()).then(|| parts.join(sep));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draft_steps_make_no_version() {
        let mut m = Moves::new(2);
        m.push_step(true); // seat 1 chose: version 1
        m.push_step(false); // seat 0's letters
        m.push_step(false); // seat 0's first letter
        m.push_step(true); // seat 0's last letter: version 2
        assert_eq!(m.version(), 2);
        assert_eq!(m.steps(), 4);
        assert_eq!(m.version_after_step(2), 1);
        assert_eq!(m.version_after_step(4), 2);
        // Steps after version 1 was reached: the three of seat 0.
        assert_eq!(m.first_step_after(1), 1);
        assert_eq!(m.first_step_after(0), 0);
        assert_eq!(m.first_step_after(2), 4);
    }

    #[test]
    fn the_drafting_seat_reads_every_step_in_its_line_and_others_one() {
        let mut m = Moves::new(2);
        m.add_draft_lines(Seat(0), Some("letters A–B".into()), Some("A–B".into()));
        assert!(m.has_draft(Seat(0)));
        let mut en = vec![Some("cards B3".into()), None, None];
        let mut ja = vec![Some("B3".into()), None, None];
        m.complete(Seat(0), &mut en, &mut ja);
        assert_eq!(en[0].as_deref(), Some("letters A–B; cards B3"));
        assert_eq!(ja[0].as_deref(), Some("A–B、B3"));
        assert_eq!(en[1], None);
        assert!(!m.has_draft(Seat(0)));
    }
}
