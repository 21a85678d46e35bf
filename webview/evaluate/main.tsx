// Entry of the Evaluate view's bundle (dist/webview/evaluate.js), opened by "Qrels Studio: Evaluate runs".
import '../common/theme.css';
import './evaluate.css';
import { createRoot } from 'react-dom/client';
import { hostMessenger } from '../common/hostMessenger.ts';
import { EvaluateApp } from './EvaluateApp.tsx';
import { EvaluateController } from './evaluateController.ts';

const container = document.getElementById('root');
if (!container) throw new Error('the page has no #root element');
const controller = new EvaluateController(hostMessenger());
createRoot(container).render(<EvaluateApp controller={controller} />);
