// Entry of the Label view's bundle (dist/webview/label.js), opened by "Qrels Studio: Open study" / "Label next".
import '../common/theme.css';
import './label.css';
import { createRoot } from 'react-dom/client';
import { hostMessenger } from '../common/hostMessenger.ts';
import { LabelApp } from './LabelApp.tsx';
import { LabelController } from './labelController.ts';

const container = document.getElementById('root');
if (!container) throw new Error('the page has no #root element');
const controller = new LabelController(hostMessenger());
createRoot(container).render(<LabelApp controller={controller} />);
