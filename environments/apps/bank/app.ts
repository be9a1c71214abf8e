import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, confirmDialog, json, kitCss, notFound, overflowMenu, pickerDialog, renderPage, str, tabBar, toast } from '../kit.js';
import { esc } from '../shared.js';
import { ALERT_OPTIONS, money, NOTE_MAX, parseAmount, PAYEES, type BankState, type Biller, type Card } from './state.js';

const ACCENT = '#1d3f8f';
const CSS =
  kitCss(ACCENT, '#dbe4ff') +
  `
body{background:#f2f4f8}
.tabs{display:flex;background:#fff;border-bottom:1px solid #dde2ea}
.tabs a{flex:1;text-align:center;padding:14px 0;font-size:16px;font-weight:bold;color:#5f6670;border-bottom:3px solid transparent}
.tabs a.on{color:${ACCENT};border-bottom-color:${ACCENT}}
.total{margin:12px;padding:18px;border-radius:14px;background:${ACCENT};color:#fff}
.total .l{font-size:15px;opacity:.85}
.total .n{font-size:30px;font-weight:bold;margin-top:4px}
.amt{font-size:17px;font-weight:bold;flex:none}
.amt.neg{color:#c92a2a}
.plastic{margin:12px;height:170px;border-radius:16px;padding:18px;color:#fff;background:linear-gradient(135deg,${ACCENT},#4263eb);display:flex;flex-direction:column;justify-content:space-between}
.plastic.frozen{background:linear-gradient(135deg,#868e96,#adb5bd)}
.plastic .nm{font-size:22px;font-weight:bold}
.plastic .no{font-size:20px;letter-spacing:2px}
.badge{font-size:14px;font-weight:bold;border-radius:10px;padding:3px 9px;flex:none}
.badge.ok{background:#d3f9d8;color:#1b5e20}
.badge.fz{background:#e7f5ff;color:#1864ab}
.badge.paid{background:#d3f9d8;color:#1b5e20}
.card{margin:12px;padding:18px;background:#fff;border-radius:14px;border:1px solid #dde2ea}
.card h2{margin:0 0 6px;font-size:23px}
.card .d{font-size:17px;color:#4a4f57;margin-top:6px}
.status{margin:0 12px;padding:12px 14px;border-radius:10px;background:#d3f9d8;color:#1b5e20;font-size:17px;font-weight:bold}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:52px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:18px;background:#fff}
.pick.empty-v{color:#868e96}
.field.bad input,.field.bad .pick{border-color:#c92a2a}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px;min-height:4px}
.money{display:flex;align-items:center;gap:6px}
.money span{font-size:22px;font-weight:bold;color:#4a4f57}
.kv{display:flex;justify-content:space-between;padding:14px 16px;background:#fff;border-bottom:1px solid #eceef1;font-size:18px}
.kv .k{color:#5f6670}
.kv .v{font-weight:bold;text-align:right}
.two{display:flex;gap:10px;margin:16px 12px}
.two .primary,.two .sec{margin:0;flex:1}
.sec{display:block;height:54px;border-radius:27px;border:2px solid ${ACCENT};color:${ACCENT};font-size:19px;font-weight:bold;text-align:center;line-height:50px}
`;

type Tab = 'accounts' | 'cards' | 'bills' | 'more';
const tabs = (ctx: AppContext, on: Tab): string =>
  tabBar(
    [
      ['accounts', 'Accounts', `${ctx.base}/`],
      ['cards', 'Cards', `${ctx.base}/cards`],
      ['bills', 'Bills', `${ctx.base}/bills`],
      ['more', 'More', `${ctx.base}/more`],
    ],
    on,
  );

const menu = (ctx: AppContext): string =>
  overflowMenu([
    ['Send money', `${ctx.base}/send`],
    ['Pay a bill', `${ctx.base}/bills`],
    ['Settings', `${ctx.base}/more`],
  ]);

/** Recent activity that is on the account before the session starts. */
const HISTORY: readonly (readonly [string, string, number])[] = [
  ['Jun 1', 'Corner Market', -4712],
  ['May 31', 'Payroll deposit', 184500],
  ['May 30', 'Fuel Stop', -3890],
  ['May 29', 'Transfer to savings', -20000],
  ['May 28', 'Bookshop', -1899],
];

function accountsPage(state: BankState, ctx: AppContext, toastKind: string): AppResponse {
  const sent = [...state.transfers]
    .reverse()
    .map((t) => `<div class="row"><div class="info"><div class="t">To ${esc(t.payee)}</div><div class="s">Jun 2${t.note ? ` &middot; ${esc(t.note)}` : ''}</div></div><span class="amt neg">-${money(t.cents)}</span></div>`);
  const paid = state.billers
    .filter((b) => b.paidCents > 0)
    .map((b) => `<div class="row"><div class="info"><div class="t">${esc(b.name)}</div><div class="s">Jun 2 &middot; Bill payment</div></div><span class="amt neg">-${money(b.paidCents)}</span></div>`);
  const old = HISTORY.map(
    ([d, what, c]) =>
      `<div class="row"><div class="info"><div class="t">${esc(what)}</div><div class="s">${d}</div></div><span class="amt${c < 0 ? ' neg' : ''}">${c < 0 ? '-' : '+'}${money(Math.abs(c))}</span></div>`,
  );
  const body = `${appbar('Bank')}${tabs(ctx, 'accounts')}
<div class="total"><div class="l">Total balance</div><div class="n">${money(state.checkingCents + state.savingsCents)}</div></div>
<div class="row"><div class="info"><div class="t">Everyday Checking</div><div class="s">Checking &bull;&bull;2231</div></div><span class="amt">${money(state.checkingCents)}</span></div>
<div class="row"><div class="info"><div class="t">High-Yield Savings</div><div class="s">Savings &bull;&bull;7710</div></div><span class="amt">${money(state.savingsCents)}</span></div>
<a class="primary" href="${ctx.base}/send">Send money</a>
<div class="section">Recent activity</div>${[...sent, ...paid, ...old].join('')}<div class="spacer"></div>${menu(ctx)}
${toastKind === 'sent' ? toast('Money sent') : ''}`;
  return renderPage({ title: 'Bank', css: CSS, body, ctx, root: true });
}

const cardStatus = (c: Card): string => (c.frozen ? '<span class="badge fz">Frozen</span>' : '<span class="badge ok">Active</span>');

function cardsPage(state: BankState, ctx: AppContext): AppResponse {
  const rows = state.cards
    .map(
      (c) =>
        `<a class="row" href="${ctx.base}/card/${c.id}"><div class="info"><div class="t">${esc(c.name)}</div><div class="s">${c.kind} card &bull;&bull;${c.last4}</div></div>${cardStatus(c)}</a>`,
    )
    .join('');
  const body = `${appbar('Cards')}${tabs(ctx, 'cards')}<div class="section">Your cards (${state.cards.length})</div>${rows}
<div class="hint" style="padding:12px 16px;color:#5f6670;font-size:15px">Lost a card? Freeze it to block new purchases.</div><div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Cards', css: CSS, body, ctx, root: true });
}

function cardPage(ctx: AppContext, c: Card, toastKind: string): AppResponse {
  const dialog = c.frozen
    ? confirmDialog('freeze', 'Unfreeze this card?', `${c.name} will work again for purchases and withdrawals right away.`, 'Unfreeze', 'freeze()')
    : confirmDialog('freeze', 'Freeze this card?', `Purchases and withdrawals with ${c.name} will be declined until you unfreeze it.`, 'Freeze', 'freeze()');
  const body = `${appbar(c.name, { back: true })}
<div class="plastic${c.frozen ? ' frozen' : ''}"><div class="nm">${esc(c.name)}</div><div class="no">&bull;&bull;&bull;&bull; &bull;&bull;&bull;&bull; &bull;&bull;&bull;&bull; ${c.last4}</div><div>${c.kind}${c.frozen ? ' &middot; FROZEN' : ''}</div></div>
<div class="section">Card controls</div>
<button class="row" role="switch" aria-checked="${c.frozen}" aria-label="Freeze card" onclick="show('freeze')"><div class="info"><div class="t">Freeze card</div><div class="s">${
    c.frozen ? 'Card is frozen. New purchases are declined.' : 'Temporarily block new purchases'
  }</div></div><span class="switch${c.frozen ? ' on' : ''}"></span></button>
<div class="row"><div class="info"><div class="t">Card number</div><div class="s">&bull;&bull;&bull;&bull; ${c.last4}</div></div></div>
<div class="row"><div class="info"><div class="t">Status</div></div>${cardStatus(c)}</div>${menu(ctx)}
${dialog}${toastKind === 'frozen' ? toast('Card frozen') : toastKind === 'unfrozen' ? toast('Card unfrozen') : ''}`;
  const script = `function freeze(){api('freeze',{id:${c.id},frozen:${!c.frozen}}).then(r=>{if(r.ok)location.replace(BASE+'/card/${c.id}?toast='+(r.frozen?'frozen':'unfrozen'))})}`;
  return renderPage({ title: c.name, css: CSS, body, ctx, script });
}

function billsPage(state: BankState, ctx: AppContext): AppResponse {
  const unpaid = state.billers.filter((b) => b.paidCents === 0);
  const rows = state.billers
    .map(
      (b) =>
        `<a class="row" href="${ctx.base}/bill/${b.id}"><div class="info"><div class="t">${esc(b.name)}</div><div class="s">${
          b.paidCents ? `Paid ${money(b.paidCents)} on Jun 2` : `${money(b.dueCents)} due ${esc(b.dueDate)}`
        }</div></div>${b.paidCents ? '<span class="badge paid">Paid</span>' : ''}</a>`,
    )
    .join('');
  const body = `${appbar('Bills')}${tabs(ctx, 'bills')}
<div class="card"><div class="d" style="margin:0">Due in the next 30 days</div><h2 style="margin:6px 0 0">${money(unpaid.reduce((s, b) => s + b.dueCents, 0))}</h2><div class="d">${unpaid.length} bills &middot; paid from Everyday Checking</div></div>
<div class="section">Your billers (${state.billers.length})</div>${rows}<div class="spacer"></div>${menu(ctx)}`;
  return renderPage({ title: 'Bills', css: CSS, body, ctx, root: true });
}

function billPage(ctx: AppContext, b: Biller, toastKind: string): AppResponse {
  const action = b.paidCents
    ? `<div class="status">Paid ${money(b.paidCents)} on Jun 2 from Everyday Checking</div>`
    : `<button class="primary" onclick="show('pay')">Pay ${money(b.dueCents)}</button>`;
  const body = `${appbar('Bill', { back: true })}
<div class="card"><h2>${esc(b.name)}</h2><div class="d">Account &bull;&bull;${b.account}</div></div>
<div class="kv"><span class="k">Amount due</span><span class="v">${money(b.dueCents)}</span></div>
<div class="kv"><span class="k">Due date</span><span class="v">${esc(b.dueDate)}</span></div>
<div class="kv"><span class="k">Pay from</span><span class="v">Everyday Checking</span></div>
${action}${menu(ctx)}
${confirmDialog('pay', 'Pay this bill?', `${money(b.dueCents)} to ${b.name} from Everyday Checking today.`, 'Pay now', 'pay()')}
${toastKind === 'paid' ? toast('Payment sent') : ''}`;
  const script = `function pay(){api('pay',{id:${b.id}}).then(r=>{if(r.ok)location.replace(BASE+'/bill/${b.id}?toast=paid')})}`;
  return renderPage({ title: b.name, css: CSS, body, ctx, script });
}

function sendPage(state: BankState, ctx: AppContext): AppResponse {
  const d = state.draft;
  const payee = d?.payee ?? '';
  const body = `${appbar('Send money', { back: true, menu: false })}
<div class="field" id="f-payee"><label>Send to</label><button class="pick${payee ? '' : ' empty-v'}" onclick="show('payees')"><span id="payee-v">${esc(payee || 'Choose a payee')}</span><span>&#9662;</span></button><div class="ferr" id="e-payee"></div></div>
<div class="field" id="f-amount"><label for="amount">Amount</label><div class="money"><span>$</span><input id="amount" type="text" inputmode="decimal" placeholder="0.00" autocomplete="off" value="${
    d ? (d.cents / 100).toFixed(2) : ''
  }"></div><div class="ferr" id="e-amount"></div></div>
<div class="field" id="f-note"><label for="note">Note (optional)</label><input id="note" type="text" placeholder="What's it for?" autocomplete="off" value="${esc(d?.note ?? '')}"><div class="ferr" id="e-note"></div></div>
<div class="kv"><span class="k">From</span><span class="v">Everyday Checking &middot; ${money(state.checkingCents)}</span></div>
<button class="primary" onclick="review()">Review</button><div class="spacer"></div>
${pickerDialog('payees', 'Send to', PAYEES, payee, 'pickPayee')}`;
  const script = `let PAYEE=${JSON.stringify(payee)};
function pickPayee(v){PAYEE=v;const s=document.getElementById('payee-v');s.textContent=v;s.parentElement.classList.remove('empty-v');
 for(const o of document.querySelectorAll('#payees .opt')){const on=o.dataset.v===v;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide('payees')}
function review(){const v=id=>document.getElementById(id).value;
 for(const k of ['payee','amount','note']){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
 api('review',{payee:PAYEE,amount:v('amount'),note:v('note')}).then(r=>{if(r.ok){location.href=BASE+'/send/review';return}
 for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;document.getElementById('f-'+k).classList.add('bad')}})}`;
  return renderPage({ title: 'Send money', css: CSS, body, ctx, script });
}

function reviewPage(state: BankState, ctx: AppContext): AppResponse {
  const d = state.draft;
  if (!d) return { status: 303, redirect: `${ctx.base}/send` };
  const body = `${appbar('Review transfer', { back: true, menu: false })}
<div class="section">Check the details</div>
<div class="kv"><span class="k">To</span><span class="v">${esc(d.payee)}</span></div>
<div class="kv"><span class="k">Amount</span><span class="v">${money(d.cents)}</span></div>
<div class="kv"><span class="k">Note</span><span class="v">${esc(d.note || 'None')}</span></div>
<div class="kv"><span class="k">From</span><span class="v">Everyday Checking</span></div>
<div class="kv"><span class="k">Arrives</span><span class="v">Today</span></div>
<div class="two"><a class="sec" href="${ctx.base}/send">Edit</a><button class="primary" onclick="send()">Confirm</button></div>`;
  const script = `function send(){api('send',{}).then(r=>{if(r.ok)location.replace(BASE+'/send/done')})}`;
  return renderPage({ title: 'Review transfer', css: CSS, body, ctx, script });
}

function donePage(state: BankState, ctx: AppContext): AppResponse {
  const t = state.transfers[state.transfers.length - 1];
  if (!t) return { status: 303, redirect: `${ctx.base}/send` };
  const body = `${appbar('Money sent', { menu: false })}
<div class="card"><h2>You sent ${money(t.cents)} to ${esc(t.payee)}</h2><div class="d">From Everyday Checking${t.note ? ` &middot; &ldquo;${esc(t.note)}&rdquo;` : ''}</div></div>
<a class="primary" href="${ctx.base}/">Done</a>`;
  return renderPage({ title: 'Money sent', css: CSS, body, ctx });
}

function morePage(state: BankState, ctx: AppContext, toastKind: string): AppResponse {
  const body = `${appbar('More')}${tabs(ctx, 'more')}
<div class="row"><div class="av" style="background:${ACCENT}">JR</div><div class="info"><div class="t">Jamie Rivera</div><div class="s">Member since 2019</div></div></div>
<div class="section">Alerts</div>
<div class="field"><label>Low balance alert</label><button class="pick" onclick="show('alert')"><span id="alert-v">${esc(state.alert)}</span><span>&#9662;</span></button>
<div class="muted" style="margin-top:8px">Get a notification when Everyday Checking drops below this amount.</div></div>
<div class="section">Statements</div>
<button class="row" role="switch" aria-checked="${state.paperless}" aria-label="Paperless statements" onclick="paper(this)"><div class="info"><div class="t">Paperless statements</div><div class="s">Monthly statements by email</div></div><span class="switch${
    state.paperless ? ' on' : ''
  }"></span></button>
<div class="row"><div class="info"><div class="t">Help &amp; support</div><div class="s">Call 1-800-555-0199, 24 hours</div></div></div>${menu(ctx)}
${pickerDialog('alert', 'Low balance alert', ALERT_OPTIONS, state.alert, 'pick')}${toastKind === 'alert' ? toast('Alert updated') : ''}`;
  const script = `function pick(v){api('alert',{alert:v}).then(r=>{if(r.ok)location.replace(BASE+'/more?toast=alert')})}
function paper(el){api('paperless',{}).then(r=>{if(!r.ok)return;el.setAttribute('aria-checked',String(r.on));el.querySelector('.switch').classList.toggle('on',r.on)})}`;
  return renderPage({ title: 'More', css: CSS, body, ctx, script, root: true });
}

function handleApi(state: BankState, action: string, b: Record<string, unknown>): AppResponse {
  state.seq += 1;
  switch (action) {
    case 'freeze': {
      const c = state.cards.find((x) => x.id === Number(b.id));
      if (!c) return json({ ok: false, error: 'unknown card' }, 404);
      if (typeof b.frozen !== 'boolean') return json({ ok: false, error: 'frozen must be true or false' }, 400);
      c.frozen = b.frozen;
      return json({ ok: true, frozen: c.frozen });
    }
    case 'pay': {
      const bill = state.billers.find((x) => x.id === Number(b.id));
      if (!bill) return json({ ok: false, error: 'unknown biller' }, 404);
      if (bill.paidCents) return json({ ok: false, error: 'already paid' });
      if (bill.dueCents > state.checkingCents) return json({ ok: false, error: 'insufficient funds' });
      bill.paidCents = bill.dueCents;
      state.checkingCents -= bill.dueCents;
      return json({ ok: true });
    }
    case 'review': {
      const payee = str(b.payee);
      const amountText = str(b.amount).trim();
      const note = str(b.note).trim();
      const cents = parseAmount(amountText);
      const errors: Record<string, string> = {};
      if (!PAYEES.includes(payee)) errors.payee = 'Choose who to send money to';
      if (!amountText) errors.amount = 'Enter an amount';
      else if (cents === undefined || cents === 0) errors.amount = 'Enter an amount like 25.00';
      else if (cents > state.checkingCents) errors.amount = `Amount is more than your available balance (${money(state.checkingCents)})`;
      if (note.length > NOTE_MAX) errors.note = `Keep the note under ${NOTE_MAX} characters`;
      if (Object.keys(errors).length) return json({ ok: false, errors });
      state.draft = { payee, cents: cents!, note };
      return json({ ok: true });
    }
    case 'send': {
      const d = state.draft;
      if (!d) return json({ ok: false, error: 'nothing to send' });
      state.transfers.push({ ...d });
      state.checkingCents -= d.cents;
      state.draft = null;
      return json({ ok: true });
    }
    case 'alert': {
      const alert = str(b.alert);
      if (!ALERT_OPTIONS.includes(alert)) return json({ ok: false, error: 'unknown alert amount' }, 400);
      state.alert = alert;
      return json({ ok: true });
    }
    case 'paperless':
      state.paperless = !state.paperless;
      return json({ ok: true, on: state.paperless });
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleBank(state: BankState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(state, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg] = parts;
  const t = req.query.get('toast') ?? '';
  if (head === undefined) return accountsPage(state, ctx, t);
  if (head === 'cards') return cardsPage(state, ctx);
  if (head === 'bills') return billsPage(state, ctx);
  if (head === 'more') return morePage(state, ctx, t);
  if (head === 'send' && arg === undefined) return sendPage(state, ctx);
  if (head === 'send' && arg === 'review') return reviewPage(state, ctx);
  if (head === 'send' && arg === 'done') return donePage(state, ctx);
  const id = Number(arg);
  const card = head === 'card' ? state.cards.find((x) => x.id === id) : undefined;
  if (card) return cardPage(ctx, card, t);
  const bill = head === 'bill' ? state.billers.find((x) => x.id === id) : undefined;
  if (bill) return billPage(ctx, bill, t);
  return notFound(CSS);
}
