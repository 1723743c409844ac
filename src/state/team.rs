//! Teams: allied sides played by several players on one side of the table (a 2-against-2
//! game). A team is a name its sides share ([`Side::team`], set by
//! [`Game::set_team`](super::Game::set_team) or an army file's `team` key); a side in no team
//! is a party of its own. What a team shares (initiative, army morale…) is for each ruleset to
//! say: this module only answers which sides play together.

use super::error::{StateError, StateErrorKind};
use super::game::{Game, Side};
use super::id::Id;

/// One party at the table: a team and its sides, or a side alone.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Party {
    /// The team's name, or the side's id for a side in no team.
    pub id: String,
    /// Whether it is a team (several players' sides) rather than a side alone.
    pub team: bool,
    /// Its sides, in the game's side order.
    pub sides: Vec<Id>,
}

impl Game {
    /// The team `side` plays in, if any.
    pub fn team_of(&self, side: &str) -> Option<&Id> {
        self.sides.get(side).and_then(|s| s.team.as_ref())
    }

    /// The party `side` belongs to: its team's name, or its own id.
    pub fn party_of(&self, side: &str) -> String {
        self.team_of(side)
            .map_or_else(|| side.to_string(), |t| t.to_string())
    }

    /// The sides of team `team`, in the side order (none: no such team).
    pub fn team_sides(&self, team: &str) -> Vec<&Side> {
        self.sides()
            .filter(|s| s.team.as_ref().is_some_and(|t| t.as_str() == team))
            .collect()
    }

    /// The sides of team `team`, or an error naming the teams there are.
    pub fn find_team(&self, team: &str) -> Result<Vec<&Side>, StateError> {
        let sides = self.team_sides(team);
        if sides.is_empty() {
            let teams: Vec<String> = self.teams().into_iter().map(|t| t.id).collect();
            return Err(StateErrorKind::Team(if teams.is_empty() {
                format!("no team `{team}`: no side is in a team (`team NAME SIDE…` forms one)")
            } else {
                format!("no team `{team}`: the teams are {}", teams.join(", "))
            })
            .into());
        }
        Ok(sides)
    }

    /// The teams, in the order their first sides come.
    pub fn teams(&self) -> Vec<Party> {
        self.parties().into_iter().filter(|p| p.team).collect()
    }

    /// Every party at the table, in the order their first sides come: each team with its
    /// sides, and each side in no team alone.
    pub fn parties(&self) -> Vec<Party> {
        let mut out: Vec<Party> = Vec::new();
        for s in self.sides() {
            match &s.team {
                Some(t) => match out.iter_mut().find(|p| p.team && p.id == t.as_str()) {
                    Some(p) => p.sides.push(s.id.clone()),
                    None => out.push(Party {
                        id: t.to_string(),
                        team: true,
                        sides: vec![s.id.clone()],
                    }),
                },
                None => out.push(Party {
                    id: s.id.to_string(),
                    team: false,
                    sides: vec![s.id.clone()],
                }),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::state::Game;

    fn four_sides() -> Game {
        let mut g = Game::default();
        for s in ["red", "pink", "blue", "navy"] {
            g.add_side(s, s).unwrap();
        }
        g
    }

    #[test]
    fn sides_in_one_team_are_one_party() {
        let mut g = four_sides();
        g.set_team("red", Some("reds")).unwrap();
        g.set_team("pink", Some("reds")).unwrap();
        let parties = g.parties();
        let ids: Vec<&str> = parties.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["reds", "blue", "navy"]);
        assert_eq!(parties[0].sides.len(), 2);
        assert_eq!(g.party_of("pink"), "reds");
        assert_eq!(g.party_of("blue"), "blue");
        assert_eq!(g.teams().len(), 1);
    }

    #[test]
    fn a_team_change_undoes_exactly() {
        let mut g = four_sides();
        let before = g.clone();
        let c = g.set_team("blue", Some("blues")).unwrap();
        assert_eq!(c.to_string(), "blue in team blues");
        g.apply(&c.inverse()).unwrap();
        assert_eq!(g, before);
    }

    #[test]
    fn an_army_file_puts_sides_in_teams_and_army_save_keeps_them() {
        let roster = "[[side]]\nid = \"red\"\nteam = \"west\"\n\n[[side]]\nid = \"blue\"\n";
        let mut g = Game::default();
        let changes = crate::state::load_roster(&g, "t.toml", roster).unwrap();
        g.apply_all(&changes).unwrap();
        assert_eq!(g.party_of("red"), "west");
        assert_eq!(g.team_of("blue"), None);
        let written = crate::state::write_roster(&g, &[]).unwrap();
        assert!(written.contains("team = \"west\""), "{written}");
        let mut again = Game::default();
        let changes = crate::state::load_roster(&again, "t.toml", &written).unwrap();
        again.apply_all(&changes).unwrap();
        assert_eq!(again.parties(), g.parties());
        let bad = "[[side]]\nid = \"red\"\nteam = \"Not An Id\"\n";
        let e = crate::state::load_roster(&Game::default(), "t.toml", bad).unwrap_err();
        assert!(e.to_string().contains("t.toml:3"), "{e}");
    }

    #[test]
    fn a_team_is_not_named_as_a_side() {
        let mut g = four_sides();
        let e = g.set_team("red", Some("blue")).unwrap_err();
        assert!(e.to_string().contains("a side's id"), "{e}");
        let e = g.find_team("nobody").unwrap_err();
        assert!(e.to_string().contains("no side is in a team"), "{e}");
    }
}
