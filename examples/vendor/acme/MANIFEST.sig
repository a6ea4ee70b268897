gerules-signatures 1
signature a4a45a48a9a9d88f 8ddEKhFkw57E3ki6VZZ/ifaYmE5MW/PS5Qm6g5e+JEc= sMM/WEybp5XLV+rM8aTi2b7ZwBXW2c+MpJt+rlfhoZZrQj06IuBQ3tvJ6BeT+HjaItg+0JldrunF6SDrX8gcCQ==
