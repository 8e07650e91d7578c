// The README's Call of Cthulhu flow ("HTTP in ten lines"), as a front-end writes it with a
// client generated from GET /openapi.json alone: no casts, no `any`, strict mode.
import createClient from "openapi-fetch";
import type { paths } from "../generated/schema";

function fail(what: string): never {
  throw new Error(what);
}

export async function harveyAndTheFarmer(baseUrl: string): Promise<string[]> {
  const lines: string[] = [];
  const anyone = createClient<paths>({ baseUrl });

  // A chase, created without a token: its Keeper token comes back once.
  const created = await anyone.POST("/chases", { body: { name: "Harvey and the farmer" } });
  if (!created.data) fail(created.error.detail);
  const chaseId: string = created.data.chase.chase_id;
  const keeperToken: string = created.data.keeper_token;
  const system: string = created.data.chase.system;
  lines.push(`created ${chaseId} (${system}), ETag ${created.response.headers.get("ETag")}`);
  const keeper = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${keeperToken}` } });
  const chase = { chase_id: chaseId };

  // Harvey and the farmer join.
  const harvey = await keeper.POST("/chases/{chase_id}/participants", {
    params: { path: chase },
    body: { name: "Harvey", role: "quarry", dex: 55, con: 60, mov: 6 },
  });
  if (!harvey.data) fail(harvey.error.detail);
  const harveyId: string = harvey.data.participant_id;
  const farmer = await keeper.POST("/chases/{chase_id}/participants", {
    params: { path: chase },
    body: { name: "Farmer", role: "pursuer", dex: 50, con: 55, mov: 7 },
  });
  if (!farmer.data) fail(farmer.error.detail);
  const farmerId: string = farmer.data.participant_id;

  // Harvey's speed roll with table dice: 72 against CON 60, a failure, MOV 5.
  const rolled = await keeper.POST("/chases/{chase_id}/participants/{participant_id}/speed-roll", {
    params: { path: { ...chase, participant_id: harveyId } },
    body: { table_dice: [70, 2] },
  });
  if (!rolled.data) fail(rolled.error.detail);
  if (rolled.data.dry_run) fail("asked for no dry run");
  const speedRoll = rolled.data.rolls[0] ?? fail("a speed roll rolls");
  if (!("level" in speedRoll)) fail("a speed roll is a percentile roll");
  const result: number = speedRoll.result;
  const level: string = speedRoll.level;
  const tens: number[] = speedRoll.tens.map((die) => die.face);
  const units: number = speedRoll.units;
  const target: number = speedRoll.target;
  lines.push(`speed roll ${result} (${tens.join("+")}+${units}) against ${target}: ${level}`);
  const view = rolled.data.chase;
  if (view.system !== "coc7e" && view.system !== "coc7e-combat") fail(`a Call of Cthulhu chase, not ${view.system}`);
  // (A view's parts beyond its identity are absent from a minimal answer, Prefer: return=minimal.)
  const harveyNow = view.participants?.[harveyId] ?? fail("Harvey is in the view");
  const speedMov: number | null = harveyNow.speed_mov;
  lines.push(`Harvey's MOV for the chase: ${speedMov}`);

  // The odds of the farmer's roll before it is made, then the roll with server dice.
  const odds = await keeper.POST("/chases/{chase_id}/participants/{participant_id}/speed-roll", {
    params: { path: { ...chase, participant_id: farmerId }, query: { dry_run: true } },
    body: {},
  });
  if (!odds.data) fail(odds.error.detail);
  if (odds.data.dry_run) {
    const ahead = odds.data.rolls[0] ?? fail("a speed roll rolls");
    lines.push(`the farmer would pass with p=${ahead.odds?.success ?? "?"}`);
  }
  const farmerRolled = await keeper.POST("/chases/{chase_id}/participants/{participant_id}/speed-roll", {
    params: { path: { ...chase, participant_id: farmerId } },
    body: {},
  });
  if (!farmerRolled.data) fail(farmerRolled.error.detail);

  // Cut to the chase two locations apart; Harvey moves one location.
  const cut = await keeper.POST("/chases/{chase_id}/cut-to-the-chase", { params: { path: chase }, body: { opening_range: 2 } });
  if (!cut.data) fail(cut.error.detail);
  const etag = cut.response.headers.get("ETag") ?? fail("a command answers its ETag");
  const moved = await keeper.POST("/chases/{chase_id}/participants/{participant_id}/move", {
    params: { path: { ...chase, participant_id: harveyId }, header: { "If-Match": etag, Prefer: "return=minimal" } },
    body: { locations: 1 },
  });
  if (!moved.data) fail(moved.error.detail);
  if (moved.data.dry_run) fail("a move has no dry run");
  const version: number = moved.data.chase.version;
  lines.push(`moved at version ${version}, outcome ${JSON.stringify(moved.data.outcome)}`);

  // Undo Harvey's move.
  const undone = await keeper.POST("/chases/{chase_id}/undo", { params: { path: chase }, body: { count: 1 } });
  if (!undone.data) fail(undone.error.detail);
  const canRedo: boolean = undone.data.chase.can_redo ?? fail("a full answer says whether a redo is possible");
  lines.push(`undone; can redo: ${canRedo}`);

  // The roll history: each roll's sequence and result, and whether it was undone.
  const history = await keeper.GET("/chases/{chase_id}/rolls", { params: { path: chase } });
  if (!history.data) fail(history.error.detail);
  for (const row of history.data.rolls) {
    const roll = row.roll;
    const shown = "level" in roll ? `${roll.result} ${roll.level}` : `${roll.purpose}`;
    const undoneRow: boolean = row.undone;
    lines.push(`roll ${roll.sequence}: ${shown}${undoneRow ? " (undone)" : ""}`);
  }

  // The track view, read again only when it changed.
  const track = await keeper.GET("/chases/{chase_id}/track", { params: { path: chase, header: { "If-None-Match": etag } } });
  if (track.response.status !== 304) {
    if (!track.data) fail(track.error.detail);
    const round: number = track.data.chase.round;
    lines.push(`round ${round}`);
  }
  return lines;
}
