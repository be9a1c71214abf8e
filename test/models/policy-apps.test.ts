import { describe, expect, it } from 'vitest';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import { understandAppTask } from '../../models/reference/roles/policy-tasks.js';
import { detectSwitches } from '../../models/reference/roles/policy-vision.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

const line = (text: string, x: number, y: number, w = 120, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const base = { guidance: [] as string[], history: [] as string[], screen, temperature: 0, random: mulberry32(1) };
const texts = (i: string): string[] => planTask(i, []).goals.map((g) => g.text);

describe('reference policy: everyday app tasks (understanding)', () => {
  it('plans delete/remove/cancel as open → press and hold → Delete → confirm, in the app the topic names', () => {
    expect(texts('Delete my Weekend alarm.')).toEqual(['open Clock', 'press and hold Weekend', 'tap Delete alarm', 'confirm with Delete']);
    expect(texts('Cancel the Team Meeting Prep in my calendar, I no longer need it.')).toEqual(['open Calendar', 'press and hold Team Meeting Prep', 'tap Delete event', 'confirm with Delete']);
    expect(texts('Delete my conversation with Lena Fisher in Messages.')[1]).toBe('press and hold Lena Fisher');
    expect(texts('Remove Diana Hughes from my contacts.')).toEqual(['open Contacts', 'search for Diana Hughes', 'press and hold Diana Hughes', 'tap Delete contact', 'confirm with Delete']);
  });

  it('plans switches, settings values and the snooze length', () => {
    expect(understandAppTask('Turn my Work alarm On.')).toEqual([
      { kind: 'open', target: 'Clock', text: 'open Clock' },
      { kind: 'toggle', target: 'Work', on: true, text: 'switch Work On' },
    ]);
    expect(understandAppTask('Please switch Do not disturb Off on my phone.')?.[1]).toMatchObject({ kind: 'toggle', target: 'Do not disturb', on: false, via: expect.arrayContaining(['Sound']) });
    expect(understandAppTask('Change my Font size to Large, please.')?.[1]).toMatchObject({ kind: 'choose', setting: 'Font size', value: 'Large', via: expect.arrayContaining(['Display']) });
    expect(texts('Make alarms snooze for 30 minutes.')).toEqual(['open Clock', 'open the menu', 'open Settings', 'set the snooze length to 30 minutes']);
  });

  it('plans new notes, events, messages and mails as New/Compose → labelled fields → Save/Send', () => {
    expect(texts('Jot down "Buy candles and a card" in a new note titled Plumber.')).toEqual(['open Notes', 'tap New note', 'type the title Plumber', 'type the text', 'save the note']);
    expect(planTask('Make a note called Birthday party that says Call back on Monday at 10.', []).goals[3]).toMatchObject({ kind: 'type', value: 'Call back on Monday at 10' });
    expect(texts('Add "Call with Grandma" to my calendar on June 11 at 09:00.')).toEqual([
      'open Calendar', 'tap New event', 'type the title Call with Grandma', 'choose June', 'choose day 11', 'choose 09:00', 'save the event',
    ]);
    expect(texts('Text Carlos Mendes: "Running 10 minutes late".')).toEqual(['open Messages', 'start a new chat', 'type Carlos Mendes in To', 'choose Carlos Mendes', 'type the message', 'send it']);
    expect(planTask('Send a mail to sam.carter@example.com: subject Project update, text "Could you resend the invoice?".', []).goals.slice(2, 5)).toMatchObject([
      { kind: 'type', value: 'sam.carter@example.com' },
      { kind: 'type', value: 'Project update' },
      { kind: 'type', value: 'Could you resend the invoice?' },
    ]);
  });

  it('plans shop tasks: product via its category, options, cart, checkout, shipping, place order', () => {
    expect(texts('Order me 1 of the Black Rain Shell Jacket (size XXL) from ShopMart with Express delivery to 27 Hillcrest Drive.')).toEqual([
      'open ShopMart', 'open Rain Shell Jacket', 'choose the colour Black', 'choose size XXL', 'add to cart (1 of 1)', 'open the cart', 'go to checkout',
      'enter the address 27 Hillcrest Drive', 'choose Express shipping', 'place the order', 'confirm the order',
    ]);
    expect(planTask('I want to look at the Heavyweight Hoodie in the ShopMart Hoodies section.', []).goals[1]).toMatchObject({ kind: 'tap', targets: ['Heavyweight Hoodie'], via: expect.arrayContaining(['Hoodies']) });
    expect(texts('Save the Trail Runner Sneakers to my ShopMart wishlist.')).toEqual(['open the shopping app', 'open Trail Runner Sneakers', 'save it to the wishlist']);
  });

  it('plans cross-app tasks: read a value in one app, use it in another', () => {
    expect(texts('Verify my account in Settings with the code that Security Team emailed me.')).toEqual([
      'open Mail', 'read the code from Security Team', 'open Settings', 'open Verify account', 'enter the code', 'tap Verify',
    ]);
    const p = planTask("Read the delivery address in my note 'Dinner plans' and order Onion Rings from Burger Place to that address.", []);
    expect(p.goals.slice(0, 2).map((g) => g.text)).toEqual(['open Notes', 'read the address in the note Dinner plans']);
    expect(p.spec).toMatchObject({ intent: 'order', place: 'Burger Place', item: 'Onion Rings', address: '{address}' });
  });

  it('leaves food orders and explicit step lists to the older readers', () => {
    expect(understandAppTask('Order 3 Pad Thai from Noodle Bar on Foodie, delivered to 221 Elm Road, paying by Card.')).toBeUndefined();
    expect(understandAppTask('Show me the menu of Green Bowl in Foodie.')).toBeUndefined();
  });
});

describe('reference policy: everyday app tasks (decisions)', () => {
  it('long-presses the exact item, then taps the action and confirms', () => {
    const list = [line('Clock', 20, 50), line('Weekend late', 30, 300), line('Weekend', 30, 420), line('Work', 30, 540)];
    const d = decide({ ...base, instruction: 'Delete my Weekend alarm.', history: ['Opened the Clock app. [goal 1/4 done]'], lines: list });
    expect(d.action).toEqual({ action: 'long_press', coordinate: [90, 430], time: 1 });
    const sheet = [line('Weekend', 30, 420), line('Delete alarm', 20, 700), line('Duplicate', 20, 760)];
    const d2 = decide({ ...base, instruction: 'Delete my Weekend alarm.', history: ['x [goal 1/4 done]', `${d.conclusion}`], lines: sheet });
    expect(d2.action).toMatchObject({ action: 'click', coordinate: [80, 710] });
    const dialog = [line('Delete alarm?', 40, 400), line('Cancel', 200, 500, 60), line('Delete', 300, 500, 60)];
    const d3 = decide({ ...base, instruction: 'Delete my Weekend alarm.', history: ['x [goal 1/4 done]', 'y [goal 2/4 done]', 'z [goal 3/4 done]'], lines: dialog });
    expect(d3.action).toEqual({ action: 'click', coordinate: [330, 510] });
  });

  it('reads a switch: taps it when it is in the wrong state, finishes when it is right', () => {
    const rows = [line('Settings', 20, 50), line('Wi-Fi', 20, 200, 60), line('Wi-Fi calling', 20, 270)];
    const history = ['Opened the Settings app. [goal 1/2 done]'];
    const off = decide({ ...base, instruction: 'Turn Wi-Fi On.', history, lines: rows, switches: [{ x: 340, y: 195, w: 52, h: 30, on: false }, { x: 340, y: 265, w: 52, h: 30, on: true }] });
    expect(off.action).toEqual({ action: 'click', coordinate: [366, 210] });
    const on = decide({ ...base, instruction: 'Turn Wi-Fi On.', history, lines: rows, switches: [{ x: 340, y: 195, w: 52, h: 30, on: true }] });
    expect(on.action).toEqual({ action: 'terminate', status: 'success' });
  });

  it('opens the settings section that mentions the setting, then the picker, then the value', () => {
    const instruction = 'Change my Font size to Large, please.';
    const home = [line('Settings', 20, 50), line('Network & Wi-Fi', 70, 200), line('Display', 70, 300, 70), line('Dark mode, font size, brightness', 70, 325, 260)];
    const d = decide({ ...base, instruction, history: ['Opened the Settings app. [goal 1/2 done]'], lines: home });
    expect(d.conclusion).toMatch(/\[goal 2\/2: via 1\]$/);
    const page = [line('Display', 60, 50), line('Font size', 20, 400, 90), line('Default', 20, 425, 70), line('Largest', 20, 600, 70)];
    const d2 = decide({ ...base, instruction, history: ['x [goal 1/2 done]', d.conclusion], lines: page });
    expect(d2.conclusion).toMatch(/opened item\]$/);
    const picker = [...page, line('Small', 60, 300, 60), line('Large', 60, 360, 60)];
    const d3 = decide({ ...base, instruction, history: ['x [goal 1/2 done]', d.conclusion, d2.conclusion], lines: picker });
    expect(d3.action).toEqual({ action: 'click', coordinate: [90, 370] });
    const after = [line('Display', 60, 50), line('Font size', 20, 400, 90), line('Large', 20, 425, 70)];
    expect(decide({ ...base, instruction, history: ['x [goal 1/2 done]', d.conclusion, d2.conclusion, d3.conclusion], lines: after }).action).toEqual({ action: 'terminate', status: 'success' });
  });

  it('steps a numeric setting with + / − until it shows the value', () => {
    const rows = [line('Brightness level', 20, 300, 140), line('−', 250, 305, 16), line('60%', 290, 305, 40), line('+', 360, 305, 16)];
    const d = decide({ ...base, instruction: 'Set the Brightness to 80%.', history: ['Opened the Settings app. [goal 1/2 done]'], lines: rows });
    expect(d.action).toEqual({ action: 'click', coordinate: [368, 315] });
    expect(d.conclusion).toMatch(/step 1\]$/);
  });

  it('keeps a value read in one app in its conclusion and types it in the other', () => {
    const instruction = 'Verify my account in Settings with the code that Security Team emailed me.';
    const mail = [line('Your verification code', 20, 150, 250), line('Your code is 482913. It expires in 10 minutes.', 20, 300, 380)];
    const d = decide({ ...base, instruction, history: ['Opened the Mail app. [goal 1/6 done]', 'Opened "Security Team". [goal 2/6: opened item]'], lines: mail });
    expect(d.conclusion).toContain('[noted code=482913]');
    expect(d.action).toEqual({ action: 'open', text: 'Settings' });
    const focused = ['a [goal 1/6 done]', d.conclusion, 'b [goal 4/6 done]', 'Tapped the field. [goal 5/6: focused]'];
    const d2 = decide({ ...base, instruction, history: focused, lines: [line('Verify account', 60, 50), line('000000', 150, 300)] });
    expect(d2.action).toEqual({ action: 'type', text: '482913' });
  });

  it('finds a chip inside a line OCR read as one row ("XS S M L XL XXL")', () => {
    const instruction = 'Order me 1 of the Black Rain Shell Jacket (size XXL) from ShopMart with Express delivery to 27 Hillcrest Drive.';
    const history = ['a [goal 1/11 done]', 'b [goal 2/11 done]', 'c [goal 3/11 done]'];
    const d = decide({ ...base, instruction, history, lines: [line('Select size', 20, 600), line('XS S M L XL XXL', 20, 650, 300)] });
    expect(d.action.action).toBe('click');
    const [x] = (d.action as { coordinate: [number, number] }).coordinate;
    expect(x).toBeGreaterThan(250);
  });
});

describe('reference policy: switch detection', () => {
  it('finds grey (off) and coloured (on) switch tracks near the right edge', () => {
    const w = 412;
    const h = 200;
    const data = new Uint8Array(w * h * 3).fill(250);
    const paint = (x0: number, y0: number, rgb: [number, number, number]): void => {
      for (let y = y0; y < y0 + 30; y++) {
        for (let x = x0; x < x0 + 52; x++) {
          const knob = (x - (x0 + 15)) ** 2 + (y - (y0 + 15)) ** 2 < 144;
          const i = (y * w + x) * 3;
          data.set(knob ? [255, 255, 255] : rgb, i);
        }
      }
    };
    paint(340, 20, [173, 181, 189]);
    paint(340, 120, [11, 92, 173]);
    const sw = detectSwitches(data, w, h, 3);
    expect(sw.map((s) => ({ y: s.y, on: s.on }))).toEqual([{ y: 20, on: false }, { y: 120, on: true }]);
  });
});
