/**
 * Reference critics of the built-in reference model server: CPU heuristics over OCR, not a VLM. Like any
 * served model they read only the request (information firewall): the instruction, step summaries, action
 * texts, captions and the screenshots decoded from the request's data URLs. They speak the request formats
 * of critics/step-critic.ts and critics/trajectory-critic.ts (section labels `Instruction:`, `Previous steps:`,
 * `Action:`, `Steps:`, `Screen captions:`, `Outcome:`; image labels `Final screen ...`) and reply with the JSON
 * those modules parse.
 *
 * Shared tools: the instruction's key ENTITIES (intent.ts) are its quoted strings, introduced names, runs of
 * capitalised words (a sentence-initial verb or courtesy word is dropped) and numbers. Matching (text-match.ts)
 * is on lowercase alphanumeric tokens with a light plural stem; "near-duplicate" = a window of the same token
 * count whose normalised Levenshtein similarity is ≥ 0.75 but which is not equal ("Burger Place" vs "Burger Palace").
 *
 * Step critic (`ref-step-critic`), in order:
 *  1. OCR the annotated before and the after screenshot. "No visible effect" = same OCR text and < 0.2% of
 *     pixels changed outside the annotation marks → NEUTRAL (for every action kind but terminate/answer).
 *  2. click/long_press: the target is the OCR line containing / nearest to the action's coordinate.
 *     target equals an entity → GOOD; near-duplicate of an entity → HARMFUL; a destructive/retreat control
 *     (Cancel, Delete, Remove, Back, Sign out, …) the instruction does not ask for → HARMFUL; ≥ 60% of the
 *     target's content words in the instruction → GOOD; a progress control (Add to cart, Checkout, Place
 *     order, Save, Send, Next, Search, …) that changed the screen → GOOD; the after screen newly shows an
 *     entity → GOOD; the before screen offered an entity in its body but the tap navigated elsewhere → HARMFUL
 *     (off-task); else NEUTRAL.
 *  3. type: the text is (a phrase of) the instruction → GOOD; near-duplicate of an instruction phrase →
 *     HARMFUL (typo); else NEUTRAL. swipe/scroll/key/open: GOOD when an entity newly appears, else NEUTRAL.
 *     Back: GOOD when it undoes a step summarised as a mistake or newly shows an entity; else HARMFUL.
 *     Home: HARMFUL unless asked. wait/terminate/answer: NEUTRAL (answer: GOOD if its text is on screen).
 *  The summary (≤ 30 words) says what was done and what the screen now shows; HARMFUL summaries use the words
 *  "instead of"/"off-task"/"undoing" so the trajectory critic can see them.
 *
 * Trajectory critics (`ref-trajectory-critic-text` over captions, `ref-trajectory-critic-multimodal` over
 * its own OCR of the screenshots in the request): Correct iff
 *  - completion: the final screen shows a completion signal consistent with the instruction's intent (order →
 *    "Order placed/confirmed"; add to cart → "Added to cart"/cart page; book → "Booked/Confirmed"; send →
 *    "Sent"; delete → "Deleted/Removed"; toggle/set → the entity with On/Off/Saved; create/save →
 *    "Saved/Created/Added"; navigation/other → every entity on the final screen; a question → an `answer`
 *    outcome whose text is on some screen),
 *  - coverage: every entity appears in the summaries or the screens after the first,
 *  - no step summary marks a mistake that no later summary reverts, and the outcome is not `failure`,
 *  - result screen (evidence.ts): an item the request names is not replaced on the final screen by a
 *    near-duplicate ("Classic Burger" in the cart for "Bacon Burger"), except for removals and switches,
 *  - the app's own words (reported-result.ts): when the intent's rule finds no completion (no removal, switch,
 *    setting or state change), a line new on the final screen reporting the request's verb or a synonym in the
 *    past tense, with every named thing there ("Hold placed" for "Reserve X"), is completion evidence;
 *  - counts (evidence.ts): a counted result line of a named item with another count than asked ("1 x Falafel
 *    Wrap" for "Order 3 Falafel Wrap") is failure evidence;
 *  - entities are grounded on the screens (critic-screen.ts `groundEntities`): a leading verb read as part of a
 *    name ("Borrow Circe") is dropped when the screens show the rest and never the whole; the step critic calls a
 *    Back that only closes an overlay NEUTRAL;
 *  - pixels (multimodal only): a request for a change whose final screenshot differs from the first in < 0.5% of
 *    the app area changed nothing; switch positions are read from their colour beside the named row.
 *  The instruction is first reduced to its request (intent.ts: courtesy frames and context sentences dropped),
 *  so rewording a request does not change what is checked.
 *  Score s = ½·completion + ½·coverage − 0.3·harm (0 on failure). At temperature 0 the verdict is s = 1;
 *  at temperature T > 0 a vote is Correct with probability σ((s − 0.85) / (w·T)) (w = 0.04 text, 0.06
 *  multimodal), so clear cases rarely flip and borderline ones (partial coverage) split — voting matters.
 */
export { instructionEntities } from './intent.js';
export { stepCriticRole } from './step-critic.js';
export { asksQuestion, readRequest, trajectoryMultimodalCriticRole, trajectoryTextCriticRole } from './trajectory-critic.js';
