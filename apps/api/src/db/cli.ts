import { loadConfig, loadDotEnv } from '../config.ts';
import { openDatabase } from './open.ts';
import { renderDemoPictures, seedLargeCatalog } from '../modules/catalog/seed.ts';
import { storeDemoCourseMedia } from '../modules/courses/seed.ts';
import { seedAll } from './seed.ts';
import { storeDemoBuild } from '../modules/licences/seed.ts';
import { demoDeliveries, storeDemoDeliverables } from '../modules/deliverables/seed.ts';
import { createStorage } from '../deps.ts';

/** `npm run db:migrate`, `npm run db:seed` and `npm run db:seed:large -- --products N`. */
async function main(): Promise<void> {
  const command = process.argv[2];
  if (command !== 'migrate' && command !== 'seed' && command !== 'seed-large') {
    throw new Error('usage: cli.ts migrate | seed | seed-large --products N');
  }
  loadDotEnv();
  const config = loadConfig();
  const opened = await openDatabase(config);
  console.log('migrations applied');
  if (command === 'seed') {
    console.log('seeded', await seedAll(opened.database.db, { codeSecret: config.CODE_SECRET }));
    const storage = createStorage(config);
    console.log('demo pictures', await renderDemoPictures(storage));
    console.log('demo course media', await storeDemoCourseMedia(storage));
    console.log('demo app build stored', await storeDemoBuild(storage));
    console.log('demo deliverables stored', await storeDemoDeliverables(storage, demoDeliveries));
  }
  if (command === 'seed-large') {
    const at = process.argv.indexOf('--products');
    const count = at > 0 ? Number(process.argv[at + 1]) : 100_000;
    if (!Number.isInteger(count) || count < 1 || count > 5_000_000) {
      throw new Error('--products must be a whole number from 1 to 5000000');
    }
    const started = Date.now();
    await seedLargeCatalog(opened.database.db, count);
    console.log(`${count} products generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  await opened.database.close();
  await opened.embedded?.stop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
