"""Adapters for training frameworks (optional extras): each plays tasks through the gateway's
`Episode` and rewards with the task's checker, taking the model's final message as its answer.
They import their framework lazily, so importing compoworld_dsl never needs one."""
