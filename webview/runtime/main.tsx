// Entry of the runtime panel's bundle (dist/webview/runtime.js, opened by "Qrels Studio: Open runtime panel").
import '../common/theme.css';
import { createRoot } from 'react-dom/client';
import { hostMessenger } from '../common/hostMessenger.ts';
import { RuntimePanel } from './RuntimePanel.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('the page has no #root element');
createRoot(container).render(<RuntimePanel messenger={hostMessenger()} />);
