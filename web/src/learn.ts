import './ui/pages/trainer.js';
