import type { AppContext, AppRequest, AppResponse } from '../../app-types.js';
import { appbar, bodyOf, json, kitCss, notFound, overflowMenu, renderPage, str, toast, bottomNav as navBar } from '../kit.js';
import { esc, MONTH_NAMES } from '../shared.js';
import {
  CATEGORIES,
  cleanText,
  DATE_OFFSETS,
  dateOf,
  dayLabel,
  dayOfMonth,
  DEFAULT_CATEGORY,
  DEFAULT_METHOD,
  expenseErrors,
  expenseOf,
  FRIENDS,
  fullName,
  GROUPS,
  groupBalance,
  groupOf,
  live,
  MAX_CENTS,
  METHODS,
  money,
  monthShort,
  netBalances,
  OWNER,
  OWNER_EMAIL,
  pairBalance,
  parseMoney,
  paymentOf,
  relDay,
  shares,
  shortDay,
  TITLE_MAX,
  who,
  YOU,
  type Expense,
  type Group,
  type Payment,
  type SplitsState,
} from './state.js';

const ACCENT = '#0f766e';
const SOFT = '#ccfbf1';
const OWED = '#0f8a5f';
const OWE = '#d9480f';
const CSS =
  kitCss(ACCENT, SOFT) +
  `
body{background:#f2f6f5}
.bnav{position:fixed;left:0;right:0;bottom:0;z-index:30;height:66px;display:flex;background:#fff;border-top:1px solid #d5e2df}
.bnav a{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:2px;font-size:14px;font-weight:bold;color:#5c6b68}
.bnav a .g{font-size:20px;line-height:22px}
.bnav a.on{color:${ACCENT}}
.spacer{height:120px}
.appbar .txt{color:#fff;font-size:18px;font-weight:bold;height:44px;padding:0 14px;border-radius:22px;display:flex;align-items:center}
.hero{margin:12px;padding:18px;border-radius:14px;background:${ACCENT};color:#fff}
.hero .lbl{font-size:14px;font-weight:bold;text-transform:uppercase;letter-spacing:.4px;color:#99f6e4}
.hero h2{margin:6px 0 4px;font-size:23px}
.hero .d{font-size:16px;color:#ccfbf1}
.card{display:block;margin:12px;padding:16px 18px;background:#fff;border-radius:14px;border:1px solid #d5e2df}
.card h2{margin:0 0 6px;font-size:20px}
.card .d{font-size:16px;color:#3d4d4a}
.card.ok{border-color:#8ce99a;background:#ebfbee}
.card.gone{background:#f8f9fa;border-color:#dee2e6}
.grp{display:flex;gap:14px;align-items:center;min-height:78px;padding:10px 16px;background:#fff;border-bottom:1px solid #e3ebe9}
.gic{flex:none;width:52px;height:52px;border-radius:14px;display:flex;align-items:center;justify-content:center;color:#fff;font-size:20px;font-weight:bold}
.grp .info,.ex .info,.fr .info,.act .info{flex:1;min-width:0}
.grp .n,.fr .n{font-size:18px;font-weight:bold}
.grp .s,.fr .s{font-size:15px;color:#56645f;margin-top:2px}
.bal{text-align:right;flex:none;font-size:14px;color:#56645f}
.bal b{display:block;font-size:17px}
.bal.owed,.bal.owed b{color:${OWED}}
.bal.owe,.bal.owe b{color:${OWE}}
.go{font-size:24px;color:#9aaba7}
.top{display:flex;gap:16px;align-items:center;padding:16px;background:#fff;border-bottom:1px solid #e3ebe9}
.top h2{margin:0 0 4px;font-size:23px}
.top .s{font-size:16px;color:#56645f;margin-top:2px}
.sum{padding:12px 16px;background:#fff;border-bottom:1px solid #e3ebe9}
.sum .big{font-size:19px;font-weight:bold}
.sum .big.owed{color:${OWED}}
.sum .big.owe{color:${OWE}}
.sum .line{font-size:16px;color:#3d4d4a;margin-top:5px}
.sum .line b.owed{color:${OWED}}
.sum .line b.owe{color:${OWE}}
.btns{display:flex;gap:10px;padding:12px 16px;background:#fff;border-bottom:1px solid #e3ebe9}
.pill{flex:1;height:46px;border-radius:23px;border:2px solid ${ACCENT};color:${ACCENT};font-size:17px;font-weight:bold;display:flex;align-items:center;justify-content:center;background:#fff}
.pill.solid{background:${ACCENT};color:#fff}
.month{padding:16px 16px 6px;font-size:15px;font-weight:bold;color:#56645f;text-transform:uppercase;letter-spacing:.3px}
.ex{display:flex;gap:12px;align-items:center;min-height:70px;padding:8px 16px;background:#fff;border-bottom:1px solid #e3ebe9}
.ex .date{flex:none;width:38px;text-align:center;color:#56645f;font-size:12px;font-weight:bold;text-transform:uppercase;line-height:1.2}
.ex .date b{display:block;font-size:19px;color:#1f2a28}
.cat{flex:none;width:42px;height:42px;border-radius:10px;display:flex;align-items:center;justify-content:center;color:#fff;font-size:18px;font-weight:bold}
.ex .n{font-size:17px;font-weight:bold}
.ex .s{font-size:14px;color:#56645f;margin-top:2px}
.ex.pay .n{font-weight:normal;font-size:16px}
.ex.new{background:#f0fdfa}
.ex .bal{font-size:13px}
.ex .bal b{font-size:16px}
.ex .bal.none{color:#9aaba7}
.kv{display:flex;justify-content:space-between;gap:16px;padding:14px 16px;background:#fff;border-bottom:1px solid #e3ebe9;font-size:17px}
.kv .k{color:#56645f;flex:none}
.kv .v{font-weight:bold;text-align:right}
.share{display:flex;gap:12px;align-items:center;padding:10px 16px;background:#fff;border-bottom:1px solid #e3ebe9;font-size:17px}
.share .info{flex:1}
.share .s{font-size:14px;color:#56645f}
.amt{font-size:34px;font-weight:bold;margin-top:2px}
.intro{padding:14px 16px 4px;font-size:16px;color:#3d4d4a}
.outline{display:block;margin:16px 12px;height:52px;border-radius:26px;border:2px solid ${ACCENT};color:${ACCENT};font-size:18px;font-weight:bold;width:calc(100% - 24px);text-align:center;background:#fff}
.outline.danger{border-color:#c92a2a;color:#c92a2a}
.pick{display:flex;justify-content:space-between;align-items:center;width:100%;height:50px;border:2px solid #d0d4da;border-radius:10px;padding:0 14px;font-size:17px;background:#fff;text-align:left}
.money{display:flex;align-items:center;gap:8px}
.money span{font-size:22px;font-weight:bold;color:#56645f}
.field .hint{font-size:15px;color:#56645f;margin-top:6px}
.field .chips{display:flex;flex-wrap:wrap;gap:8px}
.field .chip{min-height:42px}
.field.bad input,.field.bad .pick{border-color:#c92a2a}
.ferr{color:#c92a2a;font-size:15px;font-weight:bold;margin-top:6px}
.ferr:empty{display:none}
.mem{display:flex;align-items:center;gap:12px;width:100%;min-height:54px;padding:6px 2px;border-bottom:1px solid #eef2f1;text-align:left;font-size:17px}
.mem:last-child{border-bottom:none}
.mem .info{flex:1}
.mem .v{font-size:15px;color:#56645f}
.box{flex:none;width:24px;height:24px;border-radius:6px;border:2px solid #868e96;display:flex;align-items:center;justify-content:center;color:#fff;font-size:16px;font-weight:bold}
.mem[aria-checked="true"] .box{background:${ACCENT};border-color:${ACCENT}}
.avatar{flex:none;display:flex;align-items:center;justify-content:center;color:#fff;font-weight:bold}
.dialog .opt{display:flex;align-items:center;gap:14px;width:100%;padding:12px 4px;font-size:18px;text-align:left;border-bottom:1px solid #f1f3f5}
.dialog .acts button.destroy{color:#c92a2a}
.dialog.tall .list{max-height:52vh;overflow-y:auto}
.fr{display:flex;gap:14px;align-items:center;min-height:72px;padding:10px 16px;background:#fff;border-bottom:1px solid #e3ebe9;width:100%;text-align:left}
.fr.off{color:#868e96}
.flow{display:flex;align-items:center;justify-content:center;gap:18px;padding:22px 16px 8px}
.flow .arrow{font-size:30px;color:#56645f}
.flow-t{text-align:center;font-size:20px;font-weight:bold;padding:4px 16px 8px}
.flow-s{text-align:center;font-size:16px;color:#56645f;padding:0 16px 6px}
.act{display:flex;gap:12px;align-items:center;min-height:70px;padding:10px 16px;background:#fff;border-bottom:1px solid #e3ebe9}
.act .t{font-size:16px}
.act .s{font-size:14px;color:#56645f;margin-top:3px}
.act.gone .t{color:#868e96;text-decoration:line-through}
.srow{display:flex;gap:14px;align-items:center;min-height:64px;padding:10px 16px;background:#fff;border-bottom:1px solid #e3ebe9}
.srow .info{flex:1}
.srow .t{font-size:17px}
.srow .s{font-size:15px;color:#56645f;margin-top:3px}
.toast{display:flex;justify-content:space-between;align-items:center}
.toast button{color:#99f6e4;font-weight:bold;font-size:17px;padding:4px 8px;margin-left:12px}
`;

type Tab = 'groups' | 'friends' | 'activity' | 'account';
const bottomNav = (ctx: AppContext, on: Tab): string =>
  navBar(
    [
      { id: 'groups', label: 'Groups', glyph: '&#9679;', href: `${ctx.base}/` },
      { id: 'friends', label: 'Friends', glyph: '&#9786;', href: `${ctx.base}/friends` },
      { id: 'activity', label: 'Activity', glyph: '&#9776;', href: `${ctx.base}/activity` },
      { id: 'account', label: 'Account', glyph: '&#9881;', href: `${ctx.base}/account` },
    ],
    on,
  );
const menu = (ctx: AppContext, extra: readonly (readonly [string, string])[] = []): string =>
  overflowMenu([...extra, ['Groups', `${ctx.base}/`], ['Friends', `${ctx.base}/friends`], ['Activity', `${ctx.base}/activity`], ['Account', `${ctx.base}/account`]]);

const GROUP_COLORS: Readonly<Record<string, string>> = { lisbon: '#e8590c', flat: '#1971c2', climbing: '#5c940d', cabin: '#862e9c' };
const groupIcon = (g: Group, size = 52): string =>
  `<div class="gic" aria-hidden="true" style="background:${GROUP_COLORS[g.id] ?? ACCENT};width:${size}px;height:${size}px;font-size:${Math.round(size * 0.38)}px">${esc(g.name.slice(0, 2))}</div>`;
const CAT_STYLE: Readonly<Record<string, readonly [string, string]>> = {
  General: ['#868e96', '&#9632;'],
  'Food & drink': ['#e8590c', '&#9749;'],
  Groceries: ['#2f9e44', '&#9752;'],
  Transport: ['#1971c2', '&#9992;'],
  Lodging: ['#7048e8', '&#8962;'],
  Entertainment: ['#c2255c', '&#9733;'],
  Household: ['#0c8599', '&#9873;'],
  Utilities: ['#f08c00', '&#9889;'],
};
const catIcon = (category: string, size = 42): string => {
  const [color, glyph] = CAT_STYLE[category] ?? ['#868e96', '&#9632;'];
  return `<div class="cat" aria-hidden="true" style="background:${color};width:${size}px;height:${size}px;font-size:${Math.round(size * 0.45)}px">${glyph}</div>`;
};
const AVATAR_COLORS: Readonly<Record<string, string>> = {
  you: ACCENT,
  Maya: '#c2255c',
  Mia: '#e8590c',
  Sam: '#1971c2',
  Sean: '#364fc7',
  Priya: '#7048e8',
  Leo: '#2f9e44',
  Hannah: '#0c8599',
  Omar: '#a61e4d',
};
const initials = (key: string): string =>
  fullName(key)
    .split(/\s+/)
    .map((w) => w[0] ?? '')
    .join('')
    .slice(0, 2);
const avatar = (key: string, size = 44): string =>
  `<div class="avatar" aria-hidden="true" style="background:${AVATAR_COLORS[key] ?? '#495057'};width:${size}px;height:${size}px;border-radius:${size / 2}px;font-size:${Math.round(size * 0.38)}px">${esc(initials(key))}</div>`;

/** "Maya, Sam, Priya and you". */
const memberList = (g: Group): string => `${g.members.filter((m) => m !== YOU).join(', ')} and you`;
/** "Maya owes you $12.00" / "You owe Priya $3.10" / "" for settled. */
const pairLine = (friend: string, n: number): string =>
  n > 0 ? `${esc(friend)} owes you <b class="owed">${money(n)}</b>` : n < 0 ? `You owe ${esc(friend)} <b class="owe">${money(-n)}</b>` : `${esc(friend)} · settled up`;
const balTag = (n: number): string =>
  n > 0 ? `<div class="bal owed">you are owed<b>${money(n)}</b></div>` : n < 0 ? `<div class="bal owe">you owe<b>${money(-n)}</b></div>` : `<div class="bal">settled up</div>`;
/** Your part of an expense: what you lent (positive) or borrowed (negative); undefined when you are not in it. */
function yourPart(e: Expense): number | undefined {
  const sh = shares(e.cents, e.split);
  if (e.payer === YOU) return e.cents - (sh.get(YOU) ?? 0);
  return sh.has(YOU) ? -(sh.get(YOU) ?? 0) : undefined;
}
const partTag = (e: Expense): string => {
  const n = yourPart(e);
  return n === undefined ? '<div class="bal none">not involved</div>' : n >= 0 ? `<div class="bal owed">you lent<b>${money(n)}</b></div>` : `<div class="bal owe">you borrowed<b>${money(-n)}</b></div>`;
};
const payLine = (p: Payment): string => `${who(p.from)} paid ${p.to === YOU ? 'you' : esc(p.to)} ${money(p.cents)}`;
const fullMonth = (day: number): string => `${MONTH_NAMES[dateOf(day).getUTCMonth()] ?? ''} ${dateOf(day).getUTCFullYear()}`;

function groupsPage(st: SplitsState, ctx: AppContext): AppResponse {
  const totals = GROUPS.map((g) => groupBalance(st, g.id));
  const owed = totals.filter((n) => n > 0).reduce((a, b) => a + b, 0);
  const owe = -totals.filter((n) => n < 0).reduce((a, b) => a + b, 0);
  const net = owed - owe;
  const row = (g: Group, n: number): string =>
    `<a class="grp" href="${ctx.base}/g/${g.id}" data-group="${esc(g.name)}">${groupIcon(g)}<div class="info"><div class="n">${esc(g.name)}</div><div class="s">${esc(g.kind)} · ${g.members.length} people</div></div>${balTag(n)}</a>`;
  const body = `${appbar('Splitto')}
<div class="hero"><div class="lbl">Overall</div><h2>${net > 0 ? `You are owed ${money(net)}` : net < 0 ? `You owe ${money(-net)}` : 'You are all settled up'}</h2><div class="d">You owe ${money(owe)} · You are owed ${money(owed)}</div></div>
<div class="section">Your groups</div>
${GROUPS.map((g, i) => row(g, totals[i] ?? 0)).join('')}
<div class="intro">Tap a group to see its expenses, add one or settle up.</div>
<div class="spacer"></div>${bottomNav(ctx, 'groups')}${menu(ctx)}`;
  return renderPage({ title: 'Splitto', css: CSS, body, ctx, root: true });
}

type Item = { kind: 'e'; e: Expense } | { kind: 'p'; p: Payment };
const dayOfItem = (i: Item): number => (i.kind === 'e' ? i.e.day : i.p.day);
const seqOfItem = (i: Item): number => (i.kind === 'e' ? (i.e.added ? i.e.seq : 0) : i.p.seq);
const idOfItem = (i: Item): number => (i.kind === 'e' ? i.e.id : i.p.id);

function expenseRow(ctx: AppContext, e: Expense, fresh: boolean, withGroup = false): string {
  const g = groupOf(e.groupId);
  return `<a class="ex${fresh ? ' new' : ''}" href="${ctx.base}/e/${e.id}" data-title="${esc(e.title)}"><div class="date">${esc(monthShort(e.day))}<b>${dayOfMonth(e.day)}</b></div>${catIcon(e.category)}<div class="info"><div class="n">${esc(e.title)}</div><div class="s">${esc(who(e.payer))} paid ${money(e.cents)}${withGroup && g ? ` · ${esc(g.name)}` : ''}</div></div>${partTag(e)}</a>`;
}
function paymentRow(p: Payment, fresh: boolean): string {
  return `<div class="ex pay${fresh ? ' new' : ''}" data-payment="${p.id}"><div class="date">${esc(monthShort(p.day))}<b>${dayOfMonth(p.day)}</b></div><div class="cat" style="background:${OWED}" aria-hidden="true">&#8644;</div><div class="info"><div class="n">${payLine(p)}</div><div class="s">${esc(p.method)}${p.note ? ` · ${esc(p.note)}` : ''}</div></div></div>`;
}

function groupPage(st: SplitsState, ctx: AppContext, g: Group, t: string, id: number): AppResponse {
  const friends = g.members.filter((m) => m !== YOU);
  const mine = groupBalance(st, g.id);
  const items: Item[] = [
    ...live(st)
      .filter((e) => e.groupId === g.id)
      .map((e): Item => ({ kind: 'e', e })),
    ...st.payments.filter((p) => p.groupId === g.id).map((p): Item => ({ kind: 'p', p })),
  ].sort((a, b) => dayOfItem(b) - dayOfItem(a) || seqOfItem(b) - seqOfItem(a) || idOfItem(b) - idOfItem(a));
  let list = '';
  let month = '';
  for (const it of items) {
    const m = fullMonth(dayOfItem(it));
    if (m !== month) list += `<div class="month">${esc(m)}</div>`;
    month = m;
    list += it.kind === 'e' ? expenseRow(ctx, it.e, t === 'added' && it.e.id === id) : paymentRow(it.p, t === 'paid' && it.p.id === id);
  }
  const added = t === 'added' ? expenseOf(st, id) : undefined;
  const deleted = t === 'deleted' ? expenseOf(st, id) : undefined;
  const restored = t === 'restored' ? expenseOf(st, id) : undefined;
  const paid = t === 'paid' ? paymentOf(st, id) : undefined;
  let banner = '';
  if (added && added.added && !added.deleted && added.groupId === g.id) banner = `<div class="card ok"><h2>Expense added</h2><div class="d">${esc(added.title)}, ${money(added.cents)}, paid by ${esc(who(added.payer))} and split between ${added.split.length} ${added.split.length === 1 ? 'person' : 'people'}.</div></div>`;
  else if (deleted?.deleted && deleted.groupId === g.id) banner = `<div class="card gone"><h2>Expense deleted</h2><div class="d">${esc(deleted.title)} (${money(deleted.cents)}) was removed from ${esc(g.name)} and balances were updated.</div></div>`;
  else if (paid && !paid.seeded && paid.groupId === g.id) banner = `<div class="card ok"><h2>Payment recorded</h2><div class="d">${payLine(paid)} by ${esc(paid.method)}.</div></div>`;
  const net = netBalances(st, g.id);
  const body = `${appbar(g.name, { back: true })}${banner}
<div class="top">${groupIcon(g, 60)}<div><h2>${esc(g.name)}</h2><div class="s">${esc(memberList(g))}</div></div></div>
<div class="sum"><div class="big ${mine > 0 ? 'owed' : mine < 0 ? 'owe' : ''}">${mine > 0 ? `You are owed ${money(mine)} overall` : mine < 0 ? `You owe ${money(-mine)} overall` : 'You are all settled up'}</div>
${friends.map((f) => `<div class="line">${pairLine(f, pairBalance(st, g.id, f))}</div>`).join('')}</div>
<div class="btns"><a class="pill solid" id="settle" href="${ctx.base}/g/${g.id}/settle">Settle up</a><a class="pill" href="#members">Balances</a></div>
${list || '<div class="empty">No expenses yet</div>'}
<div class="section" id="members">Group balances</div>
${g.members
  .map((m) => {
    const n = net.get(m) ?? 0;
    return `<div class="share">${avatar(m, 38)}<div class="info">${esc(fullName(m))}${m === YOU ? ' (you)' : ''}</div><div class="bal ${n > 0 ? 'owed' : n < 0 ? 'owe' : ''}">${n > 0 ? `gets back<b>${money(n)}</b>` : n < 0 ? `owes<b>${money(-n)}</b>` : 'settled up'}</div></div>`;
  })
  .join('')}
<div class="spacer"></div>
<a class="fab" id="add" href="${ctx.base}/g/${g.id}/add" style="bottom:86px"><span class="plus">+</span>Add expense</a>
${bottomNav(ctx, 'groups')}${menu(ctx, [
    ['Add expense', `${ctx.base}/g/${g.id}/add`],
    ['Settle up', `${ctx.base}/g/${g.id}/settle`],
  ])}
${
  deleted?.deleted && deleted.groupId === g.id
    ? `<div id="undo-bar" class="toast" role="status"><span>Expense deleted</span><button id="undo" onclick="undo(${deleted.id})">Undo</button></div>`
    : added && added.groupId === g.id && !added.deleted
      ? toast('Expense added')
      : paid && paid.groupId === g.id
        ? toast('Payment recorded')
        : restored && !restored.deleted
          ? toast(`${restored.title} restored`)
          : ''
}`;
  const script = `setTimeout(()=>{const u=document.getElementById('undo-bar');if(u)u.hidden=true},10000);
function undo(id){api('restore',{id}).then(r=>{if(r.ok)location.replace(BASE+'/g/${g.id}?t=restored&id='+id)})}`;
  return renderPage({ title: g.name, css: CSS, body, ctx, script });
}

function expensePage(ctx: AppContext, e: Expense, t: string): AppResponse {
  const g = groupOf(e.groupId);
  const sh = shares(e.cents, e.split);
  let banner = '';
  if (e.deleted) banner = `<div class="card gone"><h2>This expense was deleted</h2><div class="d">It no longer counts toward balances in ${esc(g?.name ?? '')}.</div></div>`;
  else if (t === 'updated') banner = `<div class="card ok"><h2>Expense updated</h2><div class="d">${esc(e.title)} is now ${money(e.cents)}. Balances in ${esc(g?.name ?? '')} were recalculated.</div></div>`;
  const payerLine = `<div class="share">${avatar(e.payer, 38)}<div class="info"><b>${esc(who(e.payer))} paid ${money(e.cents)}</b></div></div>`;
  const shareRows = (g?.members ?? [])
    .filter((m) => sh.has(m))
    .map((m) => `<div class="share" data-member="${esc(m)}">${avatar(m, 38)}<div class="info">${esc(who(m))} ${m === YOU ? 'owe' : 'owes'} ${money(sh.get(m) ?? 0)}</div></div>`)
    .join('');
  const left = (g?.members ?? []).filter((m) => !sh.has(m));
  const editHref = `${ctx.base}/e/${e.id}/edit`;
  const body = `${appbar('Expense details', { back: true, actions: e.deleted ? '' : `<a class="txt" id="edit" href="${editHref}">Edit</a>` })}${banner}
<div class="top">${catIcon(e.category, 60)}<div><h2>${esc(e.title)}</h2><div class="amt" id="amount">${money(e.cents)}</div><div class="s">Added by ${esc(who(e.addedBy))} · ${esc(shortDay(e.day))}</div></div></div>
<div class="section">Split details</div>
${payerLine}${shareRows}
${left.length ? `<div class="intro">Not in this expense: ${esc(left.map(who).join(', '))}</div>` : ''}
<div class="section">Details</div>
<div class="kv"><span class="k">Group</span><span class="v">${esc(g?.name ?? '')}</span></div>
<div class="kv"><span class="k">Category</span><span class="v" id="v-category">${esc(e.category)}</span></div>
<div class="kv"><span class="k">Date</span><span class="v">${esc(dayLabel(e.day))}</span></div>
<div class="kv"><span class="k">Split</span><span class="v">Equally, ${e.split.length} ${e.split.length === 1 ? 'person' : 'people'}</span></div>
${e.notes ? `<div class="kv"><span class="k">Notes</span><span class="v">${esc(e.notes)}</span></div>` : ''}
<div class="section">Comments</div><div class="intro">No comments yet.</div>
${e.deleted ? '' : `<button class="outline danger" id="delete-btn" onclick="show('delete')">Delete expense</button>`}
<div class="spacer"></div>${bottomNav(ctx, 'groups')}
${menu(ctx, e.deleted ? [] : [['Edit expense', editHref], ['Delete expense', "js:document.getElementById('overflow').hidden=true;show('delete')"]])}
${
  e.deleted
    ? ''
    : `<div id="delete" class="scrim" data-overlay hidden><div class="dialog" role="dialog" aria-label="Delete expense?"><h2>Delete expense?</h2>
<p>&ldquo;${esc(e.title)}&rdquo; (${money(e.cents)}) will be removed for everyone in ${esc(g?.name ?? '')}, and balances will be recalculated.</p>
<div class="err" id="derr"></div><div class="acts"><button onclick="hide('delete')">Cancel</button><button class="destroy" id="delete-ok" onclick="doDelete()">Delete</button></div></div></div>`
}
${t === 'updated' && !e.deleted ? toast('Changes saved') : ''}`;
  const script = e.deleted
    ? ''
    : `let busy=false;function doDelete(){if(busy)return;busy=true;api('delete',{id:${e.id}}).then(r=>{busy=false;if(r.ok){location.replace(BASE+'/g/${e.groupId}?t=deleted&id=${e.id}');return}document.getElementById('derr').textContent=r.error||'Could not delete'})}`;
  return renderPage({ title: e.title, css: CSS, body, ctx, script });
}

/** The Add expense and Edit expense form. */
function expenseForm(ctx: AppContext, g: Group, e: Expense | undefined): AppResponse {
  const payer = e?.payer ?? YOU;
  const split = new Set(e?.split ?? g.members);
  const category = e?.category ?? DEFAULT_CATEGORY;
  const day = e?.day ?? 0;
  const days = DATE_OFFSETS.includes(day) ? DATE_OFFSETS : [day, ...DATE_OFFSETS];
  const title = e ? 'Edit expense' : 'Add expense';
  const radio = (id: string, v: string, label: string, on: boolean, fn: string): string =>
    `<button class="opt${on ? ' sel' : ''}" role="radio" aria-checked="${on}" data-g="${id}" data-v="${esc(v)}" onclick="${fn}(this)"><span class="rad"></span>${esc(label)}</button>`;
  const body = `${appbar(title, { back: true, menu: false, actions: `<button class="txt" id="save" onclick="save()">Save</button>` })}
<div class="intro">In <b>${esc(g.name)}</b> · with ${esc(memberList(g))}</div>
<div class="field" id="f-title"><label for="title">Description</label><input id="title" type="text" autocomplete="off" maxlength="${TITLE_MAX + 10}" placeholder="e.g. Dinner, taxi, tickets" value="${esc(e?.title ?? '')}"><div class="ferr" id="e-title"></div></div>
<div class="field" id="f-amount"><label for="amount">Amount</label><div class="money"><span>$</span><input id="amount" type="text" inputmode="decimal" autocomplete="off" placeholder="0.00" value="${e ? (e.cents / 100).toFixed(2) : ''}" oninput="per()"></div><div class="ferr" id="e-amount"></div></div>
<div class="field" id="f-payer"><label>Paid by</label><button class="pick" id="payer-btn" onclick="show('payerdlg')"><span id="payer-v">${esc(who(payer))}</span><span>&#9662;</span></button><div class="ferr" id="e-payer"></div></div>
<div class="field" id="f-split"><label>Split equally between</label><div id="g-split">${g.members
    .map(
      (m) =>
        `<button class="mem" role="checkbox" aria-checked="${split.has(m)}" data-m="${esc(m)}" onclick="togSplit(this)"><span class="box">&#10003;</span>${avatar(m, 34)}<div class="info">${esc(who(m))}</div><span class="v" data-share></span></button>`,
    )
    .join('')}</div><div class="hint" id="per"></div><div class="ferr" id="e-split"></div></div>
<div class="field" id="f-category"><label>Category</label><div class="chips" id="g-cat" role="radiogroup">${CATEGORIES.map(
    (c) => `<button class="chip${c === category ? ' on' : ''}" role="radio" aria-checked="${c === category}" data-v="${esc(c)}" onclick="pickCat(this)">${esc(c)}</button>`,
  ).join('')}</div><div class="ferr" id="e-category"></div></div>
<div class="field" id="f-day"><label>Date</label><button class="pick" id="date-btn" onclick="show('datedlg')"><span id="date-v">${esc(relDay(day))}</span><span>&#9662;</span></button><div class="ferr" id="e-day"></div></div>
<div class="field" id="f-notes"><label for="notes">Notes (optional)</label><input id="notes" type="text" autocomplete="off" maxlength="120" placeholder="e.g. Receipt in the shared folder" value="${esc(e?.notes ?? '')}"></div>
<div class="error" id="err"></div>
<div class="spacer"></div>
<div id="payerdlg" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('payerdlg')"><div class="dialog" role="dialog" aria-label="Who paid?"><h2>Who paid?</h2>${g.members.map((m) => radio('payer', m, who(m), m === payer, 'pickPayer')).join('')}
<div class="acts"><button onclick="hide('payerdlg')">Cancel</button></div></div></div>
<div id="datedlg" class="scrim" data-overlay hidden onclick="if(event.target===this)hide('datedlg')"><div class="dialog tall" role="dialog" aria-label="Date"><h2>Date</h2><div class="list">${days.map((d) => radio('day', String(d), relDay(d), d === day, 'pickDay')).join('')}</div>
<div class="acts"><button onclick="hide('datedlg')">Cancel</button></div></div></div>`;
  const payload = e ? `{id:${e.id},` : `{group:'${g.id}',`;
  const script = `const V={payer:${JSON.stringify(payer)},split:new Set(${JSON.stringify([...split])}),category:${JSON.stringify(category)},day:${day}};const ORDER=${JSON.stringify(g.members)};
function clr(k){document.getElementById('e-'+k).textContent='';document.getElementById('f-'+k).classList.remove('bad')}
function money(c){return '$'+(c/100).toFixed(2).replace(/\\B(?=(\\d{3})+(?!\\d))/g,',')}
function cents(){const t=document.getElementById('amount').value.trim().replace(/^\\$\\s*/,'').replace(/,/g,'');return /^\\d+(\\.\\d{1,2})?$|^\\.\\d{1,2}$/.test(t)?Math.round(Number(t)*100):NaN}
function per(){const c=cents();const ms=ORDER.filter(m=>V.split.has(m));const base=ms.length?Math.floor(c/ms.length):0;const extra=ms.length?c-base*ms.length:0;
 for(const b of document.querySelectorAll('#g-split .mem')){const i=ms.indexOf(b.dataset.m);b.querySelector('[data-share]').textContent=i<0||!(c>0)?'':money(base+(i<extra?1:0))}
 document.getElementById('per').textContent=ms.length&&c>0?money(base)+(extra?'–'+money(base+1):'')+' per person':''}
function mark(id,el){for(const o of document.querySelectorAll('#'+id+' .opt')){const on=o===el;o.classList.toggle('sel',on);o.setAttribute('aria-checked',String(on))}hide(id)}
function pickPayer(el){V.payer=el.dataset.v;document.getElementById('payer-v').textContent=el.textContent;clr('payer');mark('payerdlg',el)}
function pickDay(el){V.day=Number(el.dataset.v);document.getElementById('date-v').textContent=el.textContent;clr('day');mark('datedlg',el)}
function togSplit(el){const m=el.dataset.m;if(V.split.has(m))V.split.delete(m);else V.split.add(m);el.setAttribute('aria-checked',String(V.split.has(m)));clr('split');per()}
function pickCat(el){V.category=el.dataset.v;clr('category');for(const b of document.querySelectorAll('#g-cat .chip')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}}
per();
let busy=false;function save(){if(busy)return;for(const k of ['title','amount','payer','split','category','day'])clr(k);document.getElementById('err').textContent='';
 const v=k=>document.getElementById(k).value;busy=true;
 api('${e ? 'edit' : 'add'}',${payload}title:v('title'),amount:v('amount'),payer:V.payer,split:ORDER.filter(m=>V.split.has(m)),category:V.category,day:V.day,notes:v('notes')}).then(r=>{busy=false;
 if(r.ok){location.replace(${e ? `BASE+'/e/${e.id}?t=updated'` : `BASE+'/g/${g.id}?t=added&id='+r.id`});return}
 if(r.error)document.getElementById('err').textContent=r.error;
 let first=null;for(const [k,m] of Object.entries(r.errors||{})){document.getElementById('e-'+k).textContent=m;const f=document.getElementById('f-'+k);f.classList.add('bad');first=first||f}if(first)first.scrollIntoView({block:'center'})})}`;
  return renderPage({ title, css: CSS, body, ctx, script });
}

function settlePage(st: SplitsState, ctx: AppContext, g: Group): AppResponse {
  const friends = g.members.filter((m) => m !== YOU);
  const rows = friends
    .map((f) => {
      const n = pairBalance(st, g.id, f);
      if (n === 0) return `<div class="fr off" data-friend="${esc(f)}">${avatar(f)}<div class="info"><div class="n">${esc(f)}</div><div class="s">Settled up</div></div></div>`;
      return `<a class="fr" href="${ctx.base}/g/${g.id}/settle/${encodeURIComponent(f)}" data-friend="${esc(f)}">${avatar(f)}<div class="info"><div class="n">${esc(fullName(f))}</div><div class="s">${n > 0 ? `${esc(f)} owes you` : `You owe ${esc(f)}`}</div></div><div class="bal ${n > 0 ? 'owed' : 'owe'}"><b>${money(Math.abs(n))}</b></div><span class="go">&rsaquo;</span></a>`;
    })
    .join('');
  const body = `${appbar('Settle up', { back: true, menu: false })}
<div class="intro">Which balance do you want to settle in <b>${esc(g.name)}</b>?</div>
${rows}
<div class="intro">Record a payment you made or received outside Splitto, like cash or a bank transfer. Splitto never moves money.</div>
<div class="spacer"></div>`;
  return renderPage({ title: 'Settle up', css: CSS, body, ctx });
}

function paymentPage(st: SplitsState, ctx: AppContext, g: Group, friend: string): AppResponse {
  const n = pairBalance(st, g.id, friend);
  const [from, to] = n > 0 ? [friend, YOU] : [YOU, friend];
  const body = `${appbar('Record a payment', { back: true, menu: false })}
<div class="flow">${avatar(from, 64)}<span class="arrow">&rarr;</span>${avatar(to, 64)}</div>
<div class="flow-t" id="flow">${from === YOU ? `You paid ${esc(friend)}` : `${esc(friend)} paid you`}</div>
<div class="flow-s">${esc(g.name)} · ${n > 0 ? `${esc(friend)} owes you ${money(n)}` : `you owe ${esc(friend)} ${money(-n)}`}</div>
<div class="field" id="f-amount"><label for="amount">Amount</label><div class="money"><span>$</span><input id="amount" type="text" inputmode="decimal" autocomplete="off" value="${(Math.abs(n) / 100).toFixed(2)}"></div><div class="ferr" id="e-amount"></div></div>
<div class="field" id="f-method"><label>Paid with</label><div class="chips" id="g-method" role="radiogroup">${METHODS.map(
    (m) => `<button class="chip${m === DEFAULT_METHOD ? ' on' : ''}" role="radio" aria-checked="${m === DEFAULT_METHOD}" data-v="${esc(m)}" onclick="pickMethod(this)">${esc(m)}</button>`,
  ).join('')}</div></div>
<div class="field" id="f-note"><label for="note">Note (optional)</label><input id="note" type="text" autocomplete="off" maxlength="80" placeholder="e.g. Thanks!"></div>
<div class="intro">Date: today, ${esc(dayLabel(0))}</div>
<div class="error" id="err"></div>
<button class="primary" id="record" onclick="record()">Record payment</button>
<div class="spacer"></div>`;
  const script = `let M=${JSON.stringify(DEFAULT_METHOD)};
function pickMethod(el){M=el.dataset.v;for(const b of document.querySelectorAll('#g-method .chip')){const on=b===el;b.classList.toggle('on',on);b.setAttribute('aria-checked',String(on))}}
let busy=false;function record(){if(busy)return;busy=true;document.getElementById('e-amount').textContent='';document.getElementById('err').textContent='';
 api('pay',{group:'${g.id}',friend:${JSON.stringify(friend)},amount:document.getElementById('amount').value,method:M,note:document.getElementById('note').value}).then(r=>{busy=false;
 if(r.ok){location.replace(BASE+'/g/${g.id}?t=paid&id='+r.id);return}
 if(r.errors&&r.errors.amount){document.getElementById('e-amount').textContent=r.errors.amount;return}document.getElementById('err').textContent=r.error||'Could not record the payment'})}`;
  return renderPage({ title: 'Record a payment', css: CSS, body, ctx, script });
}

function friendsPage(st: SplitsState, ctx: AppContext): AppResponse {
  const rows = FRIENDS.map(([key, name]) => {
    const groups = GROUPS.filter((g) => g.members.includes(key));
    const n = groups.reduce((a, g) => a + pairBalance(st, g.id, key), 0);
    return `<a class="fr" href="${ctx.base}/f/${encodeURIComponent(key)}" data-friend="${esc(key)}">${avatar(key)}<div class="info"><div class="n">${esc(name)}</div><div class="s">${esc(groups.map((g) => g.name).join(', '))}</div></div>${balTag(n)}</a>`;
  }).join('');
  const body = `${appbar('Friends')}
<div class="sub intro">${FRIENDS.length} friends · balances across all groups</div>
${rows}
<div class="spacer"></div>${bottomNav(ctx, 'friends')}${menu(ctx)}`;
  return renderPage({ title: 'Friends', css: CSS, body, ctx, root: true });
}

function friendPage(st: SplitsState, ctx: AppContext, key: string): AppResponse {
  const groups = GROUPS.filter((g) => g.members.includes(key));
  const shared = live(st)
    .filter((e) => groups.some((g) => g.id === e.groupId) && (e.payer === key || e.split.includes(key)) && (e.payer === YOU || e.split.includes(YOU)))
    .sort((a, b) => b.day - a.day || b.id - a.id);
  const body = `${appbar(fullName(key), { back: true })}
<div class="top">${avatar(key, 60)}<div><h2>${esc(fullName(key))}</h2><div class="s">${esc(key.toLowerCase())}@example.com</div></div></div>
<div class="section">Balances by group</div>
${groups.map((g) => `<a class="grp" href="${ctx.base}/g/${g.id}" data-group="${esc(g.name)}">${groupIcon(g, 40)}<div class="info"><div class="n">${esc(g.name)}</div></div>${balTag(pairBalance(st, g.id, key))}</a>`).join('')}
<div class="section">Shared expenses</div>
${shared.map((e) => expenseRow(ctx, e, false, true)).join('') || '<div class="empty">Nothing shared yet</div>'}
<div class="spacer"></div>${bottomNav(ctx, 'friends')}${menu(ctx)}`;
  return renderPage({ title: fullName(key), css: CSS, body, ctx });
}

function activityPage(st: SplitsState, ctx: AppContext): AppResponse {
  type Act = { day: number; order: number; html: string };
  const acts: Act[] = [];
  for (const e of st.expenses) {
    const g = groupOf(e.groupId);
    const verb = e.deleted ? 'deleted' : e.edits ? 'updated' : 'added';
    const actor = e.deleted || e.edits ? 'You' : who(e.addedBy);
    const part = yourPart(e);
    acts.push({
      day: e.seq ? 1 : e.day,
      order: e.seq || e.id,
      html: `<a class="act${e.deleted ? ' gone' : ''}" href="${ctx.base}/e/${e.id}" data-title="${esc(e.title)}">${catIcon(e.category)}<div class="info"><div class="t">${esc(actor)} ${verb} &ldquo;${esc(e.title)}&rdquo; in ${esc(g?.name ?? '')}</div><div class="s">${e.deleted ? 'No longer counted' : part === undefined ? 'You are not involved' : part >= 0 ? `You get back ${money(part)}` : `You owe ${money(-part)}`} · ${esc(e.seq ? 'Today' : relDay(e.day))}</div></div><span class="go">&rsaquo;</span></a>`,
    });
  }
  for (const p of st.payments) {
    const g = groupOf(p.groupId);
    acts.push({
      day: p.seq ? 1 : p.day,
      order: p.seq || p.id,
      html: `<div class="act"><div class="cat" style="background:${OWED}" aria-hidden="true">&#8644;</div><div class="info"><div class="t">${payLine(p)} in ${esc(g?.name ?? '')}</div><div class="s">${esc(p.method)} · ${esc(relDay(p.day))}</div></div></div>`,
    });
  }
  acts.sort((a, b) => b.day - a.day || b.order - a.order);
  const body = `${appbar('Activity')}
<div class="section">Recent activity</div>
${acts.map((a) => a.html).join('')}
<div class="spacer"></div>${bottomNav(ctx, 'activity')}${menu(ctx)}`;
  return renderPage({ title: 'Activity', css: CSS, body, ctx, root: true });
}

function accountPage(ctx: AppContext): AppResponse {
  const row = (t: string, s: string): string => `<div class="srow"><div class="info"><div class="t">${esc(t)}</div><div class="s">${esc(s)}</div></div></div>`;
  const body = `${appbar('Account')}
<div class="srow">${avatar(YOU, 52)}<div class="info"><div class="t"><b>${esc(OWNER)}</b></div><div class="s">${esc(OWNER_EMAIL)}</div></div></div>
<div class="section">Preferences</div>
${row('Default currency', 'USD ($)')}
${row('Default split', 'Equally')}
<div class="section">Notifications</div>
${row('When someone adds an expense', 'Push notification')}
${row('When someone pays you', 'Push notification and email')}
${row('Monthly summary', 'Email, first of the month')}
<div class="section">More</div>
${row('Splitto Pro', 'Receipt scanning and charts')}
${row('Help and feedback', 'FAQ and contact')}
<div class="spacer"></div>${bottomNav(ctx, 'account')}${menu(ctx)}`;
  return renderPage({ title: 'Account', css: CSS, body, ctx, root: true });
}

interface Draft {
  title: string;
  amount: string;
  payer: string;
  split: string[];
  category: string;
  day: number;
}
const draftOf = (b: Record<string, unknown>): Draft => ({
  title: str(b.title),
  amount: str(b.amount),
  payer: str(b.payer),
  split: Array.isArray(b.split) ? b.split.map((x) => str(x)) : [],
  category: str(b.category),
  day: typeof b.day === 'number' ? b.day : NaN,
});

function handleApi(st: SplitsState, action: string, b: Record<string, unknown>): AppResponse {
  st.seq += 1;
  switch (action) {
    case 'add': {
      const g = groupOf(str(b.group));
      if (!g) return json({ ok: false, error: 'This group no longer exists' }, 409);
      const d = draftOf(b);
      const errors = expenseErrors(g.id, d);
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const id = 901 + st.expenses.filter((e) => e.added).length;
      st.expenses.push({
        id,
        groupId: g.id,
        title: cleanText(d.title),
        cents: parseMoney(d.amount),
        payer: d.payer,
        split: g.members.filter((m) => d.split.includes(m)),
        category: d.category,
        day: d.day,
        notes: cleanText(str(b.notes)).slice(0, 120),
        addedBy: YOU,
        seeded: false,
        added: true,
        deleted: false,
        edits: 0,
        seq: st.seq,
      });
      return json({ ok: true, id });
    }
    case 'edit': {
      const e = expenseOf(st, Number(b.id));
      if (!e || e.deleted) return json({ ok: false, error: 'This expense was deleted' }, 409);
      const d = draftOf(b);
      const errors = expenseErrors(e.groupId, { ...d, day: d.day === e.day ? 0 : d.day });
      if (Object.keys(errors).length) return json({ ok: false, errors });
      const g = groupOf(e.groupId);
      e.title = cleanText(d.title);
      e.cents = parseMoney(d.amount);
      e.payer = d.payer;
      e.split = (g?.members ?? []).filter((m) => d.split.includes(m));
      e.category = d.category;
      e.day = d.day;
      e.notes = cleanText(str(b.notes)).slice(0, 120);
      e.edits += 1;
      e.seq = st.seq;
      return json({ ok: true });
    }
    case 'delete': {
      const e = expenseOf(st, Number(b.id));
      if (!e || e.deleted) return json({ ok: false, error: 'This expense was already deleted' }, 409);
      e.deleted = true;
      e.seq = st.seq;
      return json({ ok: true });
    }
    case 'restore': {
      const e = expenseOf(st, Number(b.id));
      if (!e || !e.deleted) return json({ ok: false, error: 'Nothing to undo' }, 409);
      e.deleted = false;
      e.seq = st.seq;
      return json({ ok: true });
    }
    case 'pay': {
      const g = groupOf(str(b.group));
      const friend = str(b.friend);
      if (!g || friend === YOU || !g.members.includes(friend)) return json({ ok: false, error: 'Something went wrong. Try again.' }, 400);
      const owed = pairBalance(st, g.id, friend);
      if (owed === 0) return json({ ok: false, error: `You and ${friend} are already settled up` }, 409);
      const method = str(b.method);
      if (!METHODS.includes(method)) return json({ ok: false, error: 'Choose how it was paid' }, 400);
      const text = str(b.amount);
      const cents = parseMoney(text);
      if (!text.trim()) return json({ ok: false, errors: { amount: 'Enter an amount' } });
      if (Number.isNaN(cents) || cents <= 0 || cents > MAX_CENTS) return json({ ok: false, errors: { amount: 'Enter an amount like 12.50' } });
      if (cents > Math.abs(owed)) return json({ ok: false, errors: { amount: `That's more than the ${money(Math.abs(owed))} balance` } });
      const [from, to] = owed > 0 ? [friend, YOU] : [YOU, friend];
      const id = 801 + st.payments.filter((p) => !p.seeded).length;
      st.payments.push({ id, groupId: g.id, from, to, cents, method, day: 0, note: cleanText(str(b.note)).slice(0, 80), seeded: false, seq: st.seq });
      return json({ ok: true, id });
    }
    default:
      return json({ error: `unknown action ${action}` }, 404);
  }
}

export function handleSplits(st: SplitsState, req: AppRequest, ctx: AppContext): AppResponse {
  const parts = req.path.split('/').filter(Boolean).map(decodeURIComponent);
  if (req.method === 'POST') return parts[0] === 'api' && parts[1] ? handleApi(st, parts[1], bodyOf(req)) : json({ error: 'not found' }, 404);
  const [head, arg, sub, sub2] = parts;
  const t = req.query.get('t') ?? '';
  if (head === undefined) return groupsPage(st, ctx);
  if (head === 'friends' && arg === undefined) return friendsPage(st, ctx);
  if (head === 'activity' && arg === undefined) return activityPage(st, ctx);
  if (head === 'account' && arg === undefined) return accountPage(ctx);
  if (head === 'f' && arg && sub === undefined && FRIENDS.some(([k]) => k === arg)) return friendPage(st, ctx, arg);
  if (head === 'g' && arg) {
    const g = groupOf(arg);
    if (!g) return notFound(CSS);
    if (sub === undefined) return groupPage(st, ctx, g, t, Number(req.query.get('id') ?? 0));
    if (sub === 'add' && sub2 === undefined) return expenseForm(ctx, g, undefined);
    if (sub === 'settle' && sub2 === undefined) return settlePage(st, ctx, g);
    if (sub === 'settle' && sub2 && sub2 !== YOU && g.members.includes(sub2)) {
      return pairBalance(st, g.id, sub2) === 0 ? { status: 303, redirect: `${ctx.base}/g/${g.id}/settle` } : paymentPage(st, ctx, g, sub2);
    }
  }
  if (head === 'e' && arg) {
    const e = expenseOf(st, Number(arg));
    const g = e ? groupOf(e.groupId) : undefined;
    if (!e || !g) return notFound(CSS);
    if (sub === undefined) return expensePage(ctx, e, t);
    if (sub === 'edit' && sub2 === undefined) return e.deleted ? { status: 303, redirect: `${ctx.base}/e/${e.id}` } : expenseForm(ctx, g, e);
  }
  return notFound(CSS);
}
