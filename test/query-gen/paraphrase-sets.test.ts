import { describe, expect, it } from 'vitest';
import { loadParaphrases, paraphrase } from '../../bench/corpus.js';
import { loadDags } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';

/** The paraphrase validation sets: every phrasing fills from a generated query of its family, none is left out. */
describe.each(['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7-fitness', 'v8-parcels', 'v9-vet', 'v10-laundry', 'v11-cinema', 'v12-plants', 'v13', 'v14-splits', 'v15-meals', 'v16-school', 'v17-flights', 'v18-utility', 'v19-hotel', 'v20-jobs', 'v21-repairs', 'v22-carshare', 'v23-tunes', 'v24', 'v25-drive', 'v26', 'v28', 'v32', 'v34', 'v36-insurance'])('paraphrase set %s', (name) => {
  it('names real families, has ≥ 3 phrasings each, and every phrasing fills from the family\'s own slots', async () => {
    const set = await loadParaphrases(`bench/paraphrases/${name}.json`);
    const dags = loadDags();
    const families = new Set<string>(dags.flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`)));
    // (Drawn per app, so that adding an app never leaves a family of another undrawn.)
    const drawn = new Map<string, ReturnType<typeof generateQueries>['queries']>();
    const queriesOf = (app: string) => drawn.get(app) ?? drawn.set(app, generateQueries({ dags, count: 80, seed: 5, apps: [app] }).queries).get(app)!;
    for (const [key, phrasings] of Object.entries(set)) {
      const queries = queriesOf(key.split('/')[0]!);
      expect(families.has(key), key).toBe(true);
      expect(phrasings.length, key).toBeGreaterThanOrEqual(3);
      expect(new Set(phrasings).size, key).toBe(phrasings.length);
      const q = queries.find((x) => `${x.app}/${x.checker.family}` === key);
      expect(q, `a generated query of ${key}`).toBeDefined();
      phrasings.forEach((_, n) => {
        const text = paraphrase(set, q!, n);
        expect(text, `${key} #${n}`).toBeDefined();
        expect(text, `${key} #${n}`).not.toMatch(/\{[a-z_]+\}/);
      });
    }
  });
});

describe('paraphrase set v2', () => {
  it('covers every family of the apps that existed when it was written (all but the Pharmacy, Bank, Transit, HomeHub and ParkSpot apps, added after it)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v2.json');
    const expected = loadDags()
      .filter((d) => d.app !== 'pharmacy' && d.app !== 'bank' && d.app !== 'transit' && d.app !== 'smarthome' && d.app !== 'parking' && d.app !== 'fitness' && d.app !== 'parcels' && d.app !== 'vet' && d.app !== 'laundry' && d.app !== 'cinema' && d.app !== 'plants' && d.app !== 'splits' && d.app !== 'meals' && d.app !== 'school' && d.app !== 'flights' && d.app !== 'utility' && d.app !== 'hotel' && d.app !== 'jobs' && d.app !== 'repairs' && d.app !== 'carshare' && d.app !== 'tunes' && d.app !== 'drive' && d.app !== 'insurance')
      .flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v3', () => {
  it('covers every family of the apps that existed when it was written, the Pharmacy and Bank apps included (written after the third freeze; the Transit, HomeHub and ParkSpot apps came later)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v3.json');
    const expected = loadDags()
      .filter((d) => d.app !== 'transit' && d.app !== 'smarthome' && d.app !== 'parking' && d.app !== 'fitness' && d.app !== 'parcels' && d.app !== 'vet' && d.app !== 'laundry' && d.app !== 'cinema' && d.app !== 'plants' && d.app !== 'splits' && d.app !== 'meals' && d.app !== 'school' && d.app !== 'flights' && d.app !== 'utility' && d.app !== 'hotel' && d.app !== 'jobs' && d.app !== 'repairs' && d.app !== 'carshare' && d.app !== 'tunes' && d.app !== 'drive' && d.app !== 'insurance')
      .flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(expected).toContain('bank/send_money');
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v4', () => {
  it('covers every family of the apps that existed when it was written, the Transit app included (written blind after the policy freeze; the HomeHub and ParkSpot apps came later)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v4.json');
    const expected = loadDags()
      .filter((d) => d.app !== 'smarthome' && d.app !== 'parking' && d.app !== 'fitness' && d.app !== 'parcels' && d.app !== 'vet' && d.app !== 'laundry' && d.app !== 'cinema' && d.app !== 'plants' && d.app !== 'splits' && d.app !== 'meals' && d.app !== 'school' && d.app !== 'flights' && d.app !== 'utility' && d.app !== 'hotel' && d.app !== 'jobs' && d.app !== 'repairs' && d.app !== 'carshare' && d.app !== 'tunes' && d.app !== 'drive' && d.app !== 'insurance')
      .flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(expected).toContain('transit/report_lost_item');
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v5', () => {
  it('covers every family of every app of its time, the HomeHub app included (written blind with it; the ParkSpot app came later)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v5.json');
    const expected = loadDags().filter((d) => d.app !== 'parking' && d.app !== 'fitness' && d.app !== 'parcels' && d.app !== 'vet' && d.app !== 'laundry' && d.app !== 'cinema' && d.app !== 'plants' && d.app !== 'splits' && d.app !== 'meals' && d.app !== 'school' && d.app !== 'flights' && d.app !== 'utility' && d.app !== 'hotel' && d.app !== 'jobs' && d.app !== 'repairs' && d.app !== 'carshare' && d.app !== 'tunes' && d.app !== 'drive' && d.app !== 'insurance').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(expected).toContain('smarthome/add_guest_code');
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v6', () => {
  it('covers every family of every app, ParkSpot included (written blind from the DAGs only, 2026-11-27; the ParkSpot families by that app\'s author)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v6.json');
    const expected = loadDags().filter((d) => d.app !== 'fitness' && d.app !== 'parcels' && d.app !== 'vet' && d.app !== 'laundry' && d.app !== 'cinema' && d.app !== 'plants' && d.app !== 'splits' && d.app !== 'meals' && d.app !== 'school' && d.app !== 'flights' && d.app !== 'utility' && d.app !== 'hotel' && d.app !== 'jobs' && d.app !== 'repairs' && d.app !== 'carshare' && d.app !== 'tunes' && d.app !== 'drive' && d.app !== 'insurance').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(expected).toContain('smarthome/add_guest_code');
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

/** Sets written with slot references for every slot a family's templates use (v5 on): values carried verbatim. */
describe.each(['v5', 'v6', 'v7-fitness', 'v8-parcels', 'v9-vet', 'v10-laundry', 'v11-cinema', 'v12-plants', 'v14-splits', 'v15-meals', 'v16-school', 'v17-flights', 'v18-utility', 'v19-hotel', 'v20-jobs', 'v21-repairs', 'v22-carshare', 'v23-tunes', 'v24', 'v25-drive', 'v26', 'v28', 'v32', 'v36-insurance'])('paraphrase set %s carries every slot', (name) => {
  it('each phrasing names the slots its family\'s templates use, no others (shop\'s category may be left out)', async () => {
    const set = await loadParaphrases(`bench/paraphrases/${name}.json`);
    const refs = (text: string): Set<string> => new Set([...text.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((m) => m[1]!));
    for (const dag of loadDags()) {
      for (const task of dag.tasks) {
        const key = `${dag.app}/${task.id}`;
        const wanted = new Set(task.templates.flatMap((t) => [...refs(t)]));
        for (const text of set[key] ?? []) {
          const used = refs(text);
          for (const k of used) expect(wanted.has(k), `${key}: {${k}} in "${text}"`).toBe(true);
          for (const k of wanted) if (!(dag.app === 'shop' && k === 'category')) expect(used.has(k), `${key}: no {${k}} in "${text}"`).toBe(true);
        }
      }
    }
  });
});

describe('paraphrase set v7-fitness', () => {
  it('covers the PulseFit families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v7-fitness.json');
    const expected = loadDags().filter((d) => d.app === 'fitness').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v8-parcels', () => {
  it('covers the ParcelHub families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v8-parcels.json');
    const expected = loadDags().filter((d) => d.app === 'parcels').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v9-vet', () => {
  it('covers the PawPoint families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v9-vet.json');
    const expected = loadDags().filter((d) => d.app === 'vet').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v10-laundry', () => {
  it('covers the FreshFold families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v10-laundry.json');
    const expected = loadDags().filter((d) => d.app === 'laundry').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v11-cinema', () => {
  it('covers the ReelPass families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v11-cinema.json');
    const expected = loadDags().filter((d) => d.app === 'cinema').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v12-plants', () => {
  it('covers the Fernly families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v12-plants.json');
    const expected = loadDags().filter((d) => d.app === 'plants').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v14-splits', () => {
  it('covers the Splitto families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v14-splits.json');
    const expected = loadDags().filter((d) => d.app === 'splits').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v15-meals', () => {
  it('covers the Saffra families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v15-meals.json');
    const expected = loadDags().filter((d) => d.app === 'meals').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v16-school', () => {
  it('covers the Bellwise families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v16-school.json');
    const expected = loadDags().filter((d) => d.app === 'school').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v17-flights', () => {
  it('covers the Zephra families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v17-flights.json');
    const expected = loadDags().filter((d) => d.app === 'flights').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v18-utility', () => {
  it('covers the Norvale families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v18-utility.json');
    const expected = loadDags().filter((d) => d.app === 'utility').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v19-hotel', () => {
  it('covers the Lodgerra families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v19-hotel.json');
    const expected = loadDags().filter((d) => d.app === 'hotel').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v20-jobs', () => {
  it('covers the Hirewell families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v20-jobs.json');
    const expected = loadDags().filter((d) => d.app === 'jobs').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v21-repairs', () => {
  it('covers the Mendwick families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v21-repairs.json');
    const expected = loadDags().filter((d) => d.app === 'repairs').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v22-carshare', () => {
  it('covers the Wheelnook families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v22-carshare.json');
    const expected = loadDags().filter((d) => d.app === 'carshare').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v23-tunes', () => {
  it('covers the Sonquil families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v23-tunes.json');
    const expected = loadDags().filter((d) => d.app === 'tunes').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v25-drive', () => {
  it('covers the Nimbrel families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v25-drive.json');
    const expected = loadDags().filter((d) => d.app === 'drive').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});

describe('paraphrase set v36-insurance', () => {
  it('covers the Brellow families (written blind with that app)', async () => {
    const set = await loadParaphrases('bench/paraphrases/v36-insurance.json');
    const expected = loadDags().filter((d) => d.app === 'insurance').flatMap((d) => d.tasks.map((t) => `${d.app}/${t.id}`));
    expect(Object.keys(set).sort()).toEqual(expected.sort());
  });
});
