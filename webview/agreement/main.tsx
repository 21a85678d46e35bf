// Entry of the Agreement view's bundle (dist/webview/agreement.js), opened by "Qrels Studio: Show agreement".
import '../common/theme.css';
import './agreement.css';
import { createRoot } from 'react-dom/client';
import { hostMessenger } from '../common/hostMessenger.ts';
import { AgreementApp } from './AgreementApp.tsx';
import { AgreementController } from './agreementController.ts';

const container = document.getElementById('root');
if (!container) throw new Error('the page has no #root element');
const controller = new AgreementController(hostMessenger());
createRoot(container).render(<AgreementApp controller={controller} />);
