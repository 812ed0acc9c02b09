import './ui/trainer.js';
