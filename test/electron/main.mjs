// Starts the built app (out/main/index.js) as Electron would, with its data in the folder the test
// gives, so every test begins like a first start on a new machine.
import { app } from 'electron';

const userData = process.env['COUNTERSIGN_TEST_USER_DATA'];
if (!userData) throw new Error('COUNTERSIGN_TEST_USER_DATA must name a fresh folder');
app.setPath('userData', userData);
await import('../../out/main/index.js');
